/// Reads a schema off a `Decodable` type by running its `init(from:)` against a decoder
/// that records every key the type asks for, whether it is required (`decode`) or optional
/// (`decodeIfPresent`), and the shape of each value.
///
/// Types with synthesized `Codable` conformances need nothing more. Types that decode
/// themselves from a single value (enumerations, validated strings, unions) adopt
/// ``SchemaDescribed``; a type the recorder cannot read is a ``SchemaError``, never a guess.
public enum SchemaRecorder {
    /// How deeply types may nest before the recorder assumes a cycle.
    static let maxDepth = 24

    /// The schema of `type`, and a placeholder value of it.
    public static func describe<T: Decodable>(_ type: T.Type) throws(SchemaError) -> (node: SchemaNode, placeholder: T) {
        try describe(type, depth: 0)
    }

    static func describe<T: Decodable>(_ type: T.Type, depth: Int) throws(SchemaError) -> (node: SchemaNode, placeholder: T) {
        let name = String(describing: T.self)
        guard depth < maxDepth else {
            throw SchemaError(type: name, reason: "types nest more than \(maxDepth) deep (a recursive type?)")
        }
        if let described = T.self as? any SchemaDescribed.Type {
            return (try described.schemaNode(), described.schemaPlaceholder as! T)
        }
        let recording = Recording(depth: depth)
        let value: T
        do {
            value = try T(from: RecordingDecoder(recording: recording, codingPath: []))
        } catch let error as SchemaError {
            throw error
        } catch {
            throw SchemaError(type: name, reason: "its init(from:) failed while being read: \(error)")
        }
        guard recording.keyed else {
            throw SchemaError(
                type: name, reason: "it does not decode from a keyed container; adopt SchemaDescribed to state its schema")
        }
        let notes = (T.self as? any SchemaFieldNotes.Type)?.fieldNotes ?? [:]
        for key in notes.keys where !recording.fields.contains(where: { $0.name == key }) {
            throw SchemaError(type: name, reason: "fieldNotes names \"\(key)\", which is not one of its fields")
        }
        let fields = recording.fields.map { field in
            SchemaField(name: field.name, node: field.node, required: field.required, note: notes[field.name])
        }
        return (.object(SchemaObject(name: name, fields: fields)), value)
    }
}

/// What one type's `init(from:)` asked for.
private final class Recording {
    let depth: Int
    var keyed = false
    var fields: [SchemaField] = []

    init(depth: Int) { self.depth = depth }

    func add(_ key: some CodingKey, _ node: SchemaNode, required: Bool) {
        if let index = fields.firstIndex(where: { $0.name == key.stringValue }) {
            fields[index].required = fields[index].required || required
        } else {
            fields.append(SchemaField(name: key.stringValue, node: node, required: required))
        }
    }
}

private struct RecordingDecoder: Decoder {
    let recording: Recording
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recording.keyed = true
        return KeyedDecodingContainer(RecordingContainer<Key>(recording: recording, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw unsupported("an unkeyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw unsupported("a single-value container")
    }

    func unsupported(_ what: String) -> SchemaError {
        SchemaError(type: "\(codingPath.map(\.stringValue))", reason: "asks for \(what); adopt SchemaDescribed")
    }
}

private struct RecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recording: Recording
    var codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (node, value) = try SchemaRecorder.describe(T.self, depth: recording.depth + 1)
        recording.add(key, node, required: true)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (node, _) = try SchemaRecorder.describe(T.self, depth: recording.depth + 1)
        recording.add(key, node, required: false)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Bool.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(String.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { number(key, required: true) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { integer(key, required: true) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { integer(key, required: true) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { integer(key, required: true) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { integer(key, required: true) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { integer(key, required: true) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { integer(key, required: true) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { integer(key, required: true) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { integer(key, required: true) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { integer(key, required: true) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(Bool.self, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeIfPresent(String.self, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeIfPresent(Double.self, key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optionalNumber(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(Int.self, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optionalInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optionalInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optionalInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optionalInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optionalInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optionalInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optionalInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optionalInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optionalInteger(key) }

    private func decode<T: SchemaDescribed>(_ type: T.Type, _ key: Key) throws -> T {
        recording.add(key, try T.schemaNode(), required: true)
        return T.schemaPlaceholder
    }

    private func decodeIfPresent<T: SchemaDescribed>(_ type: T.Type, _ key: Key) throws -> T? {
        recording.add(key, try T.schemaNode(), required: false)
        return nil
    }

    private func integer<T: FixedWidthInteger>(_ key: Key, required: Bool) -> T {
        recording.add(key, .integer, required: required)
        return 0
    }

    private func optionalInteger<T: FixedWidthInteger>(_ key: Key) -> T? {
        recording.add(key, .integer, required: false)
        return nil
    }

    private func number(_ key: Key, required: Bool) -> Float {
        recording.add(key, .number, required: required)
        return 0
    }

    private func optionalNumber(_ key: Key) -> Float? {
        recording.add(key, .number, required: false)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw SchemaError(type: key.stringValue, reason: "nested containers are not read; decode a nested type instead")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw SchemaError(type: key.stringValue, reason: "nested containers are not read; decode an array instead")
    }

    func superDecoder() throws -> any Decoder {
        throw SchemaError(type: "super", reason: "superDecoder is not read")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw SchemaError(type: key.stringValue, reason: "superDecoder is not read")
    }
}
