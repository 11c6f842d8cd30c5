/// A flat value: a string, a number or a boolean (nothing nested, nothing null) — an event's
/// property or a feature flag's value.
public enum ScalarValue: Codable, Hashable, Sendable {
    /// Text.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)

    /// Decodes a JSON string, number or boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.typeMismatch(
                ScalarValue.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected a string, a number or a boolean"))
        }
    }

    /// Encodes the bare JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        }
    }
}
