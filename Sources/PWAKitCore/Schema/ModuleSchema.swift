/// A module's contract: its actions' payload and result shapes, its own error codes and
/// the events it sends. `pwakit modules --json` prints it; the SDK's TypeScript
/// declarations and the module reference are generated from it.
public struct ModuleSchema: Sendable, Hashable {
    /// The module's name.
    public var name: String
    /// What the module does.
    public var summary: String
    /// The feature flag that controls it, if any.
    public var featureFlag: String?
    /// Its actions, in declaration order.
    public var actions: [ActionSchema]
    /// The module's own error codes (`<module>.<reason>`).
    public var errors: [ModuleErrorCode]
    /// The events it sends to pages.
    public var events: [EventSchema]
    /// The other names it answers to.
    public var aliases: [ModuleAlias]

    /// Creates a schema.
    public init(
        name: String, summary: String, featureFlag: String?, actions: [ActionSchema], errors: [ModuleErrorCode] = [],
        events: [EventSchema] = [], aliases: [ModuleAlias] = []
    ) {
        self.name = name
        self.summary = summary
        self.featureFlag = featureFlag
        self.actions = actions
        self.errors = errors
        self.events = events
        self.aliases = aliases
    }

    /// The action called `name`.
    public func action(_ name: String) -> ActionSchema? {
        actions.first { $0.name == name }
    }

    /// The schema as JSON.
    public var json: JSONValue {
        var out: [String: JSONValue] = [
            "name": .string(name), "summary": .string(summary),
            "actions": .array(actions.map(\.json)),
            "errors": .array(errors.map { ["code": .string($0.code), "meaning": .string($0.meaning)] }),
            "events": .array(events.map(\.json)),
        ]
        if !aliases.isEmpty { out["aliases"] = .array(aliases.map(\.json)) }
        out["featureFlag"] = featureFlag.map { .string($0) } ?? .null
        return .object(out)
    }
}

/// One action's contract.
public struct ActionSchema: Sendable, Hashable {
    /// The action's name.
    public var name: String
    /// What it does.
    public var summary: String
    /// The payload's shape; `nil` when it takes none.
    public var payload: SchemaNode?
    /// The result's shape; `nil` when the response carries no data.
    public var result: SchemaNode?
    /// A valid payload.
    public var example: JSONValue?
    /// The other hosts' field names and values it also accepts, one sentence each (``PayloadAliases``).
    public var accepts: [String]

    /// Creates an action schema.
    public init(
        name: String, summary: String, payload: SchemaNode?, result: SchemaNode?, example: JSONValue? = nil,
        accepts: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.payload = payload
        self.result = result
        self.example = example
        self.accepts = accepts
    }

    /// The action as JSON.
    public var json: JSONValue {
        var out: [String: JSONValue] = [
            "name": .string(name), "summary": .string(summary), "payload": payload?.json ?? .null,
            "result": result?.json ?? .null, "example": example ?? .null,
        ]
        if !accepts.isEmpty { out["accepts"] = .array(accepts.map { .string($0) }) }
        return .object(out)
    }
}

/// A module-specific error code and what it means.
public struct ModuleErrorCode: Sendable, Hashable {
    /// The code, `<module>.<reason>`.
    public var code: String
    /// When it is answered.
    public var meaning: String

    /// Creates an entry.
    public init(_ code: String, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}

/// An event a module sends (`window.pwakit._handleEvent({type, data})`).
public struct EventSchema: Sendable, Hashable {
    /// The event's type, e.g. `push`.
    public var type: String
    /// When it is sent.
    public var summary: String
    /// The shape of its data; `nil` for none.
    public var data: SchemaNode?

    /// Creates an event schema.
    public init(type: String, summary: String, data: SchemaNode?) {
        self.type = type
        self.summary = summary
        self.data = data
    }

    /// Declares an event whose data decodes as `Data`.
    public static func declare<Data: Decodable>(
        _ type: String, data: Data.Type, summary: String
    ) throws(SchemaError) -> EventSchema {
        EventSchema(type: type, summary: summary, data: try SchemaRecorder.describe(Data.self).node)
    }

    /// The event as JSON.
    public var json: JSONValue {
        ["type": .string(type), "summary": .string(summary), "data": data?.json ?? .null]
    }
}
