/// A ``ParameterCodec`` over `Any`, so patterns of different capture types share one storage.
struct ErasedCodec: Sendable {
    let name: String
    let parse: @Sendable (String) -> Any?
    let print: @Sendable (Any) -> String?

    init<Value>(_ codec: ParameterCodec<Value>) {
        name = codec.name
        parse = { text in codec.parse(text).map { $0 as Any } }
        print = { value in (value as? Value).flatMap { codec.print($0) } }
    }
}
