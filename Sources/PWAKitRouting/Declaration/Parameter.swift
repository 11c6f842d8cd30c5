/// A path segment that captures a value: `Parameter(Int.self)` in `items/42`.
///
/// The segment must not be empty, and a value must not print as empty, `.` or `..` (URL
/// resolvers remove dot segments, so they cannot carry a value).
public struct Parameter<Value>: Sendable {
    let codec: ErasedCodec

    /// A parameter of a ``RouteParameter`` type.
    public init(_ type: Value.Type) where Value: RouteParameter {
        codec = ErasedCodec(ParameterCodec<Value>.standard)
    }

    /// A parameter read and written by `codec`.
    public init(_ codec: ParameterCodec<Value>) {
        self.codec = ErasedCodec(codec)
    }
}
