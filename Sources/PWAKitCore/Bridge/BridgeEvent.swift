/// An unsolicited message to the page: `{ type, data? }`, delivered to
/// `window.pwakit._handleEvent` and re-dispatched by the SDK as the DOM event `pwa:<type>`.
public struct BridgeEvent: Sendable, Hashable {
    /// The event type, e.g. `push` or `bridge.error`.
    public var type: String
    /// The event's data, if any.
    public var data: JSONValue?

    /// Creates an event.
    public init(type: String, data: JSONValue? = nil) {
        self.type = type
        self.data = data
    }

    /// The event a message without a readable id produces.
    public static func bridgeError(_ error: BridgeError) -> BridgeEvent {
        var data: [String: JSONValue] = [
            "code": .string(error.code.rawValue), "error": .string(error.message),
        ]
        if let details = error.details { data["details"] = details }
        return BridgeEvent(type: "bridge.error", data: .object(data))
    }

    /// The wire JSON text of this event.
    public var json: String {
        var out = "{\"type\":"
        JSONSerializer.writeString(type, into: &out)
        if let data {
            out += ",\"data\":"
            JSONSerializer.write(data, into: &out)
        }
        out += "}"
        return out
    }
}
