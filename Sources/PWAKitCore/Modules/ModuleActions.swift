/// The typed action table of an ``ActionModule``.
public struct ModuleActions<Module: PWAModule>: Sendable {
    /// One declared action.
    public struct Action: Sendable {
        /// The action's name.
        public let name: String
        /// What the action does, for the generated reference.
        public let summary: String
        /// A valid payload, for the reference and the contract tests; `nil` for actions
        /// without a payload.
        public let example: JSONValue?
        /// The other hosts' field names and values the action also accepts.
        public let aliases: PayloadAliases
        let describe: @Sendable () throws(SchemaError) -> ActionSchema
        let perform: nonisolated(nonsending) @Sendable (Module, JSONValue?, ModuleContext) async throws -> JSONValue?

        /// The action's schema, read off its payload and result types.
        public func schema() throws(SchemaError) -> ActionSchema { try describe() }
    }

    /// The declared actions, in declaration order.
    public private(set) var all: [Action] = []

    /// An empty table.
    public init() {}

    /// The declared actions' names.
    public var names: [String] { all.map { $0.name } }

    /// Declares `name`, whose payload decodes as `payload` and whose result encodes from `result`.
    ///
    /// When `Payload` adopts ``ValidatedPayload`` its checks run after decoding, before the
    /// handler. `example` is a valid payload, shown in the reference and sent by the
    /// contract tests. `aliases` are the other hosts' field names and values it also accepts,
    /// mapped onto `Payload`'s before decoding.
    public func action<Payload: Decodable & Sendable, Result: Codable & Sendable>(
        _ name: String, payload: Payload.Type, result: Result.Type, summary: String = "", example: Payload? = nil,
        accepting aliases: PayloadAliases = .none,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Module, Payload, ModuleContext) async throws -> Result
    ) -> Self where Payload: Encodable {
        let exampleJSON = example.flatMap { try? JSONValue(encoding: $0) }
        var copy = self
        copy.all.append(
            Action(
                name: name, summary: summary, example: exampleJSON, aliases: aliases,
                describe: { () throws(SchemaError) in
                    ActionSchema(
                        name: name, summary: summary,
                        payload: Payload.self == EmptyPayload.self ? nil : try SchemaRecorder.describe(Payload.self).node,
                        result: Result.self == NoResult.self ? nil : try SchemaRecorder.describe(Result.self).node,
                        example: exampleJSON, accepts: aliases.descriptions)
                }
            ) { module, raw, context in
                let decoded: Payload = try PayloadCoding.decode(try aliases.apply(raw))
                if let validated = decoded as? any ValidatedPayload {
                    try validated.validate()
                }
                let output = try await handler(module, decoded, context)
                return try PayloadCoding.encode(output)
            })
        return copy
    }

    /// Declares `name` taking no payload (absent, `null` or `{}`).
    public func action<Result: Codable & Sendable>(
        _ name: String, result: Result.Type, summary: String = "",
        _ handler: nonisolated(nonsending) @escaping @Sendable (Module, ModuleContext) async throws -> Result
    ) -> Self {
        action(name, payload: EmptyPayload.self, result: result, summary: summary) { module, _, context in
            try await handler(module, context)
        }
    }

    /// Runs the action `name`.
    nonisolated(nonsending) func perform(
        _ name: String, module: Module, payload: JSONValue?, context: ModuleContext
    ) async throws -> JSONValue? {
        guard let action = all.first(where: { $0.name == name }) else {
            throw BridgeError(.unknownAction, "\(Module.moduleName) has no action \"\(name)\"")
        }
        return try await action.perform(module, payload, context)
    }
}

/// The payload of an action that takes none: accepts an absent payload, `null` or `{}`.
public struct EmptyPayload: Codable, Sendable, Equatable, SchemaDescribed {
    /// Creates the empty payload.
    public init() {}

    /// Never read: ``ModuleActions`` declares an `EmptyPayload` action as taking none.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .object(SchemaObject(name: "EmptyPayload", fields: [])) }

    /// The empty payload.
    public static var schemaPlaceholder: EmptyPayload { EmptyPayload() }

    /// Decodes from `null` or an empty object.
    public init(from decoder: any Decoder) throws {}

    /// Encodes as an empty object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: EmptyKey.self)
    }

    private struct EmptyKey: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}

/// The result of an action that returns nothing: the response carries no `data`.
public struct NoResult: Codable, Sendable, Equatable, SchemaDescribed {
    /// Creates the empty result.
    public init() {}

    /// Decodes from anything (there is nothing to read).
    public init(from decoder: any Decoder) throws {}

    /// Never read: ``ModuleActions`` declares a `NoResult` action as returning nothing.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .any }

    /// The empty result.
    public static var schemaPlaceholder: NoResult { NoResult() }

    /// Encodes as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
