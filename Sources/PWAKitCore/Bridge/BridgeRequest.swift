/// A call from a page: `{ id, module, action, payload?, timeoutMs? }`.
public struct BridgeRequest: Sendable, Hashable, Codable {
    /// The page's id for this call; the response carries it back.
    public var id: String
    /// The module to call, e.g. `haptics`.
    public var module: String
    /// The action within the module, e.g. `impact`.
    public var action: String
    /// The action's input, if any.
    public var payload: JSONValue?
    /// The page's deadline for this call in milliseconds (an extension of ours).
    public var timeoutMs: Double?

    /// Creates a request.
    public init(id: String, module: String, action: String, payload: JSONValue? = nil, timeoutMs: Double? = nil) {
        self.id = id
        self.module = module
        self.action = action
        self.payload = payload
        self.timeoutMs = timeoutMs
    }
}

/// One message from a page, validated: a call, or the cancellation of an earlier call.
public enum BridgeMessage: Sendable, Hashable {
    /// Call a module's action.
    case call(BridgeRequest)
    /// Cancel the call with this id (`{ "id": X, "cancel": true }`).
    case cancel(id: String)

    /// The longest id accepted, in UTF-8 bytes (not characters: one character can hold any
    /// number of combining marks).
    public static let maxIDLength = 256
    /// The longest module or action name accepted, in UTF-8 bytes.
    public static let maxNameLength = 128

    /// Validates a parsed message, naming the field at fault when it is invalid.
    public init(validating value: JSONValue, id: String) throws(BridgeError) {
        guard case .object(let members) = value else {
            throw BridgeError(.invalidMessage, "a message must be a JSON object, not \(value.typeName)")
        }
        guard id.utf8.count <= Self.maxIDLength else {
            throw .field(.invalidMessage, path: "id", "longer than \(Self.maxIDLength) bytes")
        }
        if let cancel = members["cancel"] {
            guard cancel == .bool(true) else {
                throw .field(.invalidMessage, path: "cancel", "must be true when present")
            }
            self = .cancel(id: id)
            return
        }
        let module = try Self.name(members, "module")
        let action = try Self.name(members, "action")
        var timeoutMs: Double?
        if let timeout = members["timeoutMs"], !timeout.isNull {
            guard let value = timeout.doubleValue else {
                throw .field(.invalidMessage, path: "timeoutMs", "expected a number, got \(timeout.typeName)")
            }
            guard value > 0, value <= 86_400_000 else {
                throw .field(
                    .invalidMessage, path: "timeoutMs",
                    "must be above 0 and at most 86400000 (one day), got \(JSONSerializer.serialize(timeout))")
            }
            timeoutMs = value
        }
        let payload = members["payload"]
        self = .call(
            BridgeRequest(
                id: id, module: module, action: action,
                payload: payload?.isNull == true ? nil : payload, timeoutMs: timeoutMs))
    }

    private static func name(_ members: [String: JSONValue], _ field: String) throws(BridgeError) -> String {
        guard let value = members[field] else {
            throw .field(.invalidMessage, path: field, "is required")
        }
        guard case .string(let name) = value else {
            throw .field(.invalidMessage, path: field, "expected a string, got \(value.typeName)")
        }
        guard !name.isEmpty else {
            throw .field(.invalidMessage, path: field, "must not be empty")
        }
        guard name.utf8.count <= maxNameLength else {
            throw .field(.invalidMessage, path: field, "longer than \(maxNameLength) bytes")
        }
        return name
    }
}
