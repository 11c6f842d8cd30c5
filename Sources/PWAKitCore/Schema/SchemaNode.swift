/// The shape of a payload, a result or an event's data, as declared by Swift types.
///
/// Schemas are not written by hand: ``SchemaRecorder`` reads them off the `Codable` types
/// that modules decode payloads into and encode results from, so the schema, the SDK's
/// TypeScript declarations generated from it and the native decoding cannot disagree.
public indirect enum SchemaNode: Sendable, Hashable {
    /// A string; `format` names a stricter form (`date-time`, `base64`, `uri`).
    case string(format: String?)
    /// A whole number.
    case integer
    /// Any finite number.
    case number
    /// `true` or `false`.
    case boolean
    /// Any JSON value.
    case any
    /// A list of values of one shape.
    case array(SchemaNode)
    /// An object with arbitrary string keys and values of one shape.
    case map(SchemaNode)
    /// An object with named fields.
    case object(SchemaObject)
    /// One of a fixed set of strings.
    case enumeration(name: String, cases: [String])
    /// One of several objects, told apart by a string field.
    case union(SchemaUnion)

    /// A plain string.
    public static let string = SchemaNode.string(format: nil)
}

/// A named object type: its fields in declaration order.
public struct SchemaObject: Sendable, Hashable {
    /// The type's name (the Swift type's name; the SDK prefixes it with `PWAKit`).
    public var name: String
    /// Its fields.
    public var fields: [SchemaField]

    /// Creates an object type.
    public init(name: String, fields: [SchemaField]) {
        self.name = name
        self.fields = fields
    }

    /// The field called `name`.
    public func field(_ name: String) -> SchemaField? {
        fields.first { $0.name == name }
    }
}

/// One field of an object type.
public struct SchemaField: Sendable, Hashable {
    /// The key on the wire.
    public var name: String
    /// The value's shape.
    public var node: SchemaNode
    /// Whether the key must be present.
    public var required: Bool
    /// A note for documentation: ranges, units, rules the type cannot say.
    public var note: String?

    /// Creates a field.
    public init(name: String, node: SchemaNode, required: Bool, note: String? = nil) {
        self.name = name
        self.node = node
        self.required = required
        self.note = note
    }
}

/// A tagged union: objects told apart by the string field `discriminator`.
public struct SchemaUnion: Sendable, Hashable {
    /// The union's name.
    public var name: String
    /// The field whose value names the variant, e.g. `type`.
    public var discriminator: String
    /// The variants: tag and the object's other fields.
    public var variants: [Variant]

    /// One variant.
    public struct Variant: Sendable, Hashable {
        /// The discriminator's value for this variant.
        public var tag: String
        /// The variant's fields, without the discriminator.
        public var object: SchemaObject

        /// Creates a variant.
        public init(tag: String, object: SchemaObject) {
            self.tag = tag
            self.object = object
        }
    }

    /// Creates a union.
    public init(name: String, discriminator: String, variants: [Variant]) {
        self.name = name
        self.discriminator = discriminator
        self.variants = variants
    }
}

extension SchemaNode {
    /// The schema as JSON, in the shape `pwakit modules --json` prints.
    public var json: JSONValue {
        switch self {
        case .string(let format):
            var out: [String: JSONValue] = ["type": "string"]
            if let format { out["format"] = .string(format) }
            return .object(out)
        case .integer: return ["type": "integer"]
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .any: return ["type": "any"]
        case .array(let element): return ["type": "array", "items": element.json]
        case .map(let value): return ["type": "map", "values": value.json]
        case .object(let object): return object.json
        case .enumeration(let name, let cases):
            return ["type": "enum", "name": .string(name), "cases": .array(cases.map { .string($0) })]
        case .union(let union):
            return [
                "type": "union", "name": .string(union.name), "discriminator": .string(union.discriminator),
                "variants": .array(
                    union.variants.map { variant in
                        ["tag": .string(variant.tag), "object": variant.object.json]
                    }),
            ]
        }
    }
}

extension SchemaObject {
    /// The object type as JSON.
    public var json: JSONValue {
        [
            "type": "object", "name": .string(name),
            "fields": .array(
                fields.map { field in
                    var out: [String: JSONValue] = [
                        "name": .string(field.name), "required": .bool(field.required), "schema": field.node.json,
                    ]
                    if let note = field.note { out["note"] = .string(note) }
                    return .object(out)
                }),
        ]
    }
}
