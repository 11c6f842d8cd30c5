/// A type that states its own schema instead of having it read off its `Decodable`
/// conformance: primitives, collections, enumerations, tagged unions and validated strings.
///
/// ``SchemaRecorder`` uses ``schemaNode()`` for the type's shape and ``schemaPlaceholder``
/// as the value it hands back while reading the enclosing type.
public protocol SchemaDescribed: Decodable {
    /// The type's schema.
    static func schemaNode() throws(SchemaError) -> SchemaNode
    /// Any valid value of the type.
    static var schemaPlaceholder: Self { get }
}

/// A string enumeration whose schema lists its cases.
///
/// ```swift
/// enum ImpactStyle: String, Codable, Sendable, SchemaEnum { case light, medium, heavy }
/// ```
public protocol SchemaEnum: SchemaDescribed, CaseIterable, RawRepresentable where RawValue == String {}

extension SchemaEnum {
    /// `.enumeration` of the raw values, named after the type.
    public static func schemaNode() throws(SchemaError) -> SchemaNode {
        .enumeration(name: String(describing: Self.self), cases: allCases.map(\.rawValue))
    }

    /// The first case.
    public static var schemaPlaceholder: Self { allCases.first! }
}

/// Documentation notes for the fields of a type whose schema is read off `Decodable`:
/// ranges, units and rules the type itself cannot state.
public protocol SchemaFieldNotes {
    /// Field name → note, e.g. `["weekday": "1 (Sunday) – 7"]`.
    static var fieldNotes: [String: String] { get }
}

extension String: SchemaDescribed {
    /// `.string`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .string }
    /// `""`.
    public static var schemaPlaceholder: String { "" }
}

extension Bool: SchemaDescribed {
    /// `.boolean`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .boolean }
    /// `false`.
    public static var schemaPlaceholder: Bool { false }
}

extension Int: SchemaDescribed {
    /// `.integer`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .integer }
    /// `0`.
    public static var schemaPlaceholder: Int { 0 }
}

extension Double: SchemaDescribed {
    /// `.number`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .number }
    /// `0`.
    public static var schemaPlaceholder: Double { 0 }
}

extension JSONValue: SchemaDescribed {
    /// `.any`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .any }
    /// `null`.
    public static var schemaPlaceholder: JSONValue { .null }
}

extension Array: SchemaDescribed where Element: Decodable {
    /// `.array` of the element's schema.
    public static func schemaNode() throws(SchemaError) -> SchemaNode {
        .array(try SchemaRecorder.describe(Element.self).node)
    }
    /// `[]`.
    public static var schemaPlaceholder: [Element] { [] }
}

extension Dictionary: SchemaDescribed where Key == String, Value: Decodable {
    /// `.map` of the value's schema.
    public static func schemaNode() throws(SchemaError) -> SchemaNode {
        .map(try SchemaRecorder.describe(Value.self).node)
    }
    /// `[:]`.
    public static var schemaPlaceholder: [String: Value] { [:] }
}

/// A schema that could not be read off a type.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type concerned.
    public var type: String
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(type: String, reason: String) {
        self.type = type
        self.reason = reason
    }

    /// `Type: reason`.
    public var description: String { "\(type): \(reason)" }
}

extension Optional: SchemaDescribed where Wrapped: Decodable {
    /// The wrapped type's schema (a field of optional type is an optional field).
    public static func schemaNode() throws(SchemaError) -> SchemaNode {
        try SchemaRecorder.describe(Wrapped.self).node
    }
    /// `nil`.
    public static var schemaPlaceholder: Wrapped? { nil }
}

extension SchemaEnum where Self: Decodable {
    /// Decodes a raw value; one that is not a case names every case it could have been.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = Self(rawValue: raw) else {
            let shown = raw.count > 40 ? String(raw.prefix(40)) + "…" : raw
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(shown)\" is not one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = value
    }
}
