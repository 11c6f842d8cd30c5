/// The typed action table of an ``ActionModule``.
public struct ModuleActions<Module: PWAModule>: Sendable {
    /// One declared action.
    public struct Action: Sendable {
        /// The action's name.
        public let name: String
        /// The Swift type of the payload, for documentation and schema output.
        public let payloadType: String
        /// The Swift type of the result.
        public let resultType: String
        let perform: @Sendable (Module, JSONValue?, ModuleContext) async throws -> JSONValue?
    }

    /// The declared actions, in declaration order.
    public private(set) var all: [Action] = []

    /// An empty table.
    public init() {}

    /// The declared actions' names.
    public var names: [String] { all.map(\.name) }

    /// Declares `name`, whose payload decodes as `payload` and whose result encodes from `result`.
    public func action<Payload: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String, payload: Payload.Type, result: Result.Type,
        _ handler: @escaping @Sendable (Module, Payload, ModuleContext) async throws -> Result
    ) -> Self {
        var copy = self
        copy.all.append(
            Action(
                name: name, payloadType: String(describing: Payload.self), resultType: String(describing: Result.self)
            ) { module, raw, context in
                let decoded: Payload = try PayloadCoding.decode(raw)
                let output = try await handler(module, decoded, context)
                return try PayloadCoding.encode(output)
            })
        return copy
    }

    /// Declares `name` taking no payload (absent, `null` or `{}`).
    public func action<Result: Encodable & Sendable>(
        _ name: String, result: Result.Type,
        _ handler: @escaping @Sendable (Module, ModuleContext) async throws -> Result
    ) -> Self {
        action(name, payload: EmptyPayload.self, result: result) { module, _, context in
            try await handler(module, context)
        }
    }

    /// Runs the action `name`.
    func perform(_ name: String, module: Module, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? {
        guard let action = all.first(where: { $0.name == name }) else {
            throw BridgeError(.unknownAction, "\(Module.moduleName) has no action \"\(name)\"")
        }
        return try await action.perform(module, payload, context)
    }
}

/// The payload of an action that takes none: accepts an absent payload, `null` or `{}`.
public struct EmptyPayload: Codable, Sendable, Equatable {
    /// Creates the empty payload.
    public init() {}

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
public struct NoResult: Encodable, Sendable, Equatable {
    /// Creates the empty result.
    public init() {}

    /// Encodes as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
