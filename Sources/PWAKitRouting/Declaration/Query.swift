/// A named query item that captures a value: `Query("tab", String.self)` in `items/42?tab=notes`.
///
/// Required items are missing → ``RoutingError/Code/missingQueryItem``; optional ones
/// (`Query("tab", String?.self)`) capture `nil` when absent and are left out when `nil`; one with a
/// default captures it when absent and is left out when equal to it. An item without `=` reads as
/// the empty string, and an item the route reads may appear only once.
public struct Query<Value>: Sendable {
    let field: QueryField

    /// A required item of a ``RouteParameter`` type.
    public init(_ name: String, _ type: Value.Type) where Value: RouteParameter {
        self.init(name, ParameterCodec<Value>.standard)
    }

    /// A required item read and written by `codec`.
    public init(_ name: String, _ codec: ParameterCodec<Value>) {
        field = QueryField(
            name: name, typeName: codec.name, parse: { text in codec.parse(text).map { $0 as Any } }, absent: nil,
            print: { value in
                guard let value = value as? Value, let text = codec.print(value) else { return .unprintable }
                return .text(text)
            })
    }

    /// An optional item of a ``RouteParameter`` type: `Query("tab", String?.self)`.
    public init<Wrapped: RouteParameter>(_ name: String, _ type: Wrapped?.Type) where Value == Wrapped? {
        self.init(name, optional: ParameterCodec<Wrapped>.standard)
    }

    /// An optional item read and written by `codec`.
    public init<Wrapped>(_ name: String, optional codec: ParameterCodec<Wrapped>) where Value == Wrapped? {
        field = QueryField(
            name: name, typeName: codec.name, parse: { text in codec.parse(text).map { Wrapped?.some($0) as Any } },
            absent: { Wrapped?.none as Any },
            print: { value in
                guard let optional = value as? Wrapped? else { return .unprintable }
                guard let wrapped = optional else { return .omitted }
                return codec.print(wrapped).map(QueryField.Printed.text) ?? .unprintable
            })
    }

    /// An item of a ``RouteParameter`` type that is `defaultValue` when absent, and left out when equal to it.
    public init(_ name: String, _ type: Value.Type, default defaultValue: Value) where Value: RouteParameter & Equatable {
        let codec = ParameterCodec<Value>.standard
        field = QueryField(
            name: name, typeName: codec.name, parse: { text in codec.parse(text).map { $0 as Any } },
            absent: { defaultValue as Any },
            print: { value in
                guard let value = value as? Value, let text = codec.print(value) else { return .unprintable }
                return value == defaultValue ? .omitted : .text(text)
            })
    }
}
