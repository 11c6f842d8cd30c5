/// A parsed JSON document that keeps what the validator needs and `JSONSerialization` loses.
///
/// Object members stay in document order with their source line, numbers keep their
/// exact text (so `1` and `1.0` stay distinguishable), and booleans are never confused
/// with numbers.
indirect enum ConfigurationJSON: Sendable, Equatable {
    /// One `"key": value` pair of an object, with the line on which the key starts.
    struct Member: Sendable, Equatable {
        var key: String
        var value: ConfigurationJSON
        var line: Int
    }

    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([ConfigurationJSON])
    case object([Member])

    /// The name of this value's JSON type, as used in "expected …, found …" messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, when this is a string.
    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The members, when this is an object.
    var members: [Member]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements, when this is an array.
    var elements: [ConfigurationJSON]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The first member named `key`, when this is an object.
    subscript(key: String) -> ConfigurationJSON? {
        members?.first { $0.key == key }?.value
    }

    /// The value as an integer, when it is a number written without fraction or exponent
    /// that fits in `Int`.
    var integerValue: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }
}
