/// The answer to one call: `{ id, success: true, data? }` or
/// `{ id, success: false, error, code, details? }`.
public struct BridgeResponse: Sendable, Hashable {
    /// The id of the call this answers.
    public var id: String
    /// The call's data, or why it failed.
    public var outcome: Result<JSONValue?, BridgeError>

    /// Creates a response.
    public init(id: String, outcome: Result<JSONValue?, BridgeError>) {
        self.id = id
        self.outcome = outcome
    }

    /// A success carrying `data`.
    public static func success(id: String, data: JSONValue?) -> BridgeResponse {
        BridgeResponse(id: id, outcome: .success(data))
    }

    /// A failure carrying `error`.
    public static func failure(id: String, error: BridgeError) -> BridgeResponse {
        BridgeResponse(id: id, outcome: .failure(error))
    }

    /// The error, when the call failed.
    public var error: BridgeError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// The wire JSON text of this response.
    public var json: String {
        var out = "{\"id\":"
        JSONSerializer.writeString(id, into: &out)
        switch outcome {
        case .success(let data):
            out += ",\"success\":true"
            if let data {
                out += ",\"data\":"
                JSONSerializer.write(data, into: &out)
            }
        case .failure(let error):
            out += ",\"success\":false,\"error\":"
            JSONSerializer.writeString(error.message, into: &out)
            out += ",\"code\":"
            JSONSerializer.writeString(error.code.rawValue, into: &out)
            if let details = error.details {
                out += ",\"details\":"
                JSONSerializer.write(details, into: &out)
            }
        }
        out += "}"
        return out
    }
}
