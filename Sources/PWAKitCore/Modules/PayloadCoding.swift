import Foundation
import PWAKitErrors

/// Moves payloads and results between ``JSONValue`` and Codable types, turning decoding
/// failures into `invalid_payload` errors that name the field at fault.
enum PayloadCoding {
    static func decode<Payload: Decodable>(_ raw: JSONValue?) throws(BridgeError) -> Payload {
        if Payload.self == EmptyPayload.self {
            switch raw {
            case nil, .null?: return EmptyPayload() as! Payload
            case .object(let members)? where members.isEmpty: return EmptyPayload() as! Payload
            case let other?:
                throw .field(.invalidPayload, path: "payload", "this action takes no payload, got \(other.typeName)")
            }
        }
        if Payload.self == JSONValue.self {
            // NB: any JSON is a valid JSONValue; no need to round-trip it through a decoder.
            return (raw ?? .object([:])) as! Payload
        }
        let value = raw ?? .object([:])
        do {
            return try value.decode(Payload.self)
        } catch let error as DecodingError {
            throw describe(error, payloadWasMissing: raw == nil)
        } catch {
            throw BridgeError(.invalidPayload, "payload could not be decoded: \(error)")
        }
    }

    static func encode<Result: Encodable>(_ result: Result) throws -> JSONValue? {
        if result is NoResult { return nil }
        if let value = result as? JSONValue { return value }
        let value = try JSONValue(encoding: result)
        return value.isNull ? nil : value
    }

    private static func describe(_ error: DecodingError, payloadWasMissing: Bool) -> BridgeError {
        let path = error.fieldPath(under: "payload")
        switch error {
        case .keyNotFound(let key, let context):
            if payloadWasMissing && context.codingPath.isEmpty {
                return .field(.invalidPayload, path: "payload", "is required (missing \"\(key.stringValue)\")")
            }
            return .field(.invalidPayload, path: path, "is required")
        case .typeMismatch(let type, _):
            return .field(.invalidPayload, path: path, "expected \(jsonTypeName(type))")
        case .valueNotFound(let type, _):
            return .field(.invalidPayload, path: path, "expected \(jsonTypeName(type)), got null")
        case .dataCorrupted(let context):
            return .field(.invalidPayload, path: path, context.debugDescription)
        @unknown default:
            return BridgeError(.invalidPayload, "payload could not be decoded")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a \(type)"
        }
    }
}
