/// How one parameter's value is read from, and written as, the decoded text of a path segment or
/// query value.
///
/// Percent-encoding is not the codec's business: it sees and returns decoded text. A codec is
/// exact when `parse(print(v)) == v` for every value it prints; the router's round trip relies on it.
public struct ParameterCodec<Value>: Sendable {
    /// The name used in error messages (`Int`, `UUID`, `app id`).
    public let name: String
    let parseText: @Sendable (String) -> Value?
    let printValue: @Sendable (Value) -> String?

    /// A codec from its two directions: `parse` answers `nil` for text that is not a value, `print`
    /// answers `nil` for a value that has no text form.
    public init(
        name: String, parse: @escaping @Sendable (String) -> Value?, print: @escaping @Sendable (Value) -> String?
    ) {
        self.name = name
        self.parseText = parse
        self.printValue = print
    }

    /// The value `text` spells, or `nil`.
    public func parse(_ text: String) -> Value? { parseText(text) }

    /// The text of `value`, or `nil` when it has none.
    public func print(_ value: Value) -> String? { printValue(value) }
}

extension ParameterCodec where Value: RouteParameter {
    /// The codec of a ``RouteParameter`` type: its own parse and print.
    public static var standard: ParameterCodec<Value> {
        ParameterCodec(
            name: String(describing: Value.self), parse: { Value(routeParameter: $0) }, print: { $0.routeParameter })
    }
}
