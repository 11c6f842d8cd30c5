import Foundation

/// The keyed container of a ``PayloadDecodingNode``: its entries' keys and value offsets, read
/// once; a key written twice reads as its last value, as in JSON.
struct PayloadKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Up to this many entries a lookup scans them (cheaper than hashing for a struct's few keys);
    /// above it, a table is built, so a large dictionary decodes in linear time.
    static var scanLimit: Int { 12 }

    let node: PayloadDecodingNode
    let entries: [(name: String, offset: Int)]
    let end: Int
    /// Each key's last offset, for containers of more than ``scanLimit`` entries.
    private let index: [String: Int]?

    init(node: PayloadDecodingNode, entries: [(name: String, offset: Int)], end: Int) {
        self.node = node
        self.entries = entries
        self.end = end
        if entries.count > Self.scanLimit {
            var index: [String: Int] = [:]
            index.reserveCapacity(entries.count)
            for entry in entries { index[entry.name] = entry.offset }
            self.index = index
        } else {
            self.index = nil
        }
    }

    var codingPath: [any CodingKey] { node.codingPath }

    /// Every key once, in the order first written.
    var allKeys: [Key] {
        var seen = Set<String>()
        return entries.compactMap { seen.insert($0.name).inserted ? Key(stringValue: $0.name) : nil }
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        if let index { return index[name] }
        for position in entries.indices.reversed() where entries[position].name == name { return entries[position].offset }
        return nil
    }

    private func offset(_ key: Key) throws -> Int {
        guard let offset = find(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for key '\(key.stringValue)'"))
        }
        return offset
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node.isNull(at: try offset(key), key: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node.decodeBool(at: try offset(key), key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try node.decodeString(at: try offset(key), key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try node.decodeDouble(at: try offset(key), key: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try node.decodeFloat(at: try offset(key), key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try node.decodeInteger(T.self, at: try offset(key), key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try node.decode(T.self, at: try offset(key), key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(at: PayloadKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(at: key) }

    /// A decoder of the value under `key`, or, as JSON's, of a null when there is none.
    private func superDecoder(at key: some CodingKey) throws -> any Decoder {
        let name = key.stringValue
        let offset = index.map { $0[name] } ?? entries.last(where: { $0.name == name })?.offset
        guard let offset else {
            return PayloadDecodingNode(bytes: [PayloadFormat.Tag.null.rawValue], start: 0, end: 1, parent: node, key: key)
        }
        return PayloadDecodingNode(bytes: node.bytes, start: offset, end: end, parent: node, key: key)
    }

    private func child(_ key: Key) throws -> PayloadDecodingNode {
        PayloadDecodingNode(bytes: node.bytes, start: try offset(key), end: end, parent: node, key: key)
    }
}

/// The unkeyed container of a ``PayloadDecodingNode``: a cursor over its elements, moved past an
/// element only once it decoded.
struct PayloadUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let node: PayloadDecodingNode
    var cursor: PayloadCursor
    let elements: Int

    init(node: PayloadDecodingNode, cursor: PayloadCursor, count: Int) {
        self.node = node
        self.cursor = cursor
        self.elements = count
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { elements }
    var isAtEnd: Bool { currentIndex >= elements }
    private(set) var currentIndex = 0

    /// Decodes the next element with `body` (given its offset and key), then moves past it.
    private mutating func next<T>(_ type: T.Type, _ body: (PayloadDecodingNode, Int, PayloadKey) throws -> T) throws -> T {
        let key = PayloadKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [key], debugDescription: "no element at index \(currentIndex)"))
        }
        var after = cursor
        try node.guarded(key) { () throws(PayloadCursor.Malformed) in try after.skipValue() }
        let value = try body(node, cursor.offset, key)
        cursor = after
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(
                    codingPath: codingPath + [PayloadKey(intValue: currentIndex)],
                    debugDescription: "no element at index \(currentIndex)"))
        }
        guard try node.isNull(at: cursor.offset, key: PayloadKey(intValue: currentIndex)) else { return false }
        cursor.offset += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decodeBool(at: $1, key: $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decodeString(at: $1, key: $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decodeDouble(at: $1, key: $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decodeFloat(at: $1, key: $2) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        try next(T.self) { try $0.decodeInteger(T.self, at: $1, key: $2) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { try $0.decode(T.self, at: $1, key: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey>
    {
        let end = cursor.end
        return try next(KeyedDecodingContainer<NestedKey>.self) { node, offset, key in
            try PayloadDecodingNode(bytes: node.bytes, start: offset, end: end, parent: node, key: key).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let end = cursor.end
        return try next((any UnkeyedDecodingContainer).self) { node, offset, key in
            try PayloadDecodingNode(bytes: node.bytes, start: offset, end: end, parent: node, key: key).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let end = cursor.end
        return try next((any Decoder).self) { node, offset, key in
            PayloadDecodingNode(bytes: node.bytes, start: offset, end: end, parent: node, key: key)
        }
    }
}

/// The single-value container of a ``PayloadDecodingNode``.
struct PayloadSingleValueDecodingContainer: SingleValueDecodingContainer {
    let node: PayloadDecodingNode

    var codingPath: [any CodingKey] { node.codingPath }

    func decodeNil() -> Bool { (try? node.isNull(at: node.start, key: nil)) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try node.decodeBool(at: node.start, key: nil) }
    func decode(_ type: String.Type) throws -> String { try node.decodeString(at: node.start, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try node.decodeDouble(at: node.start, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try node.decodeFloat(at: node.start, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try node.decodeInteger(type, at: node.start, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try node.decodeInteger(type, at: node.start, key: nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // NB: a value of a single-value container is this node's own value, so a composite one is
        // read by a node at the same place and path (no key: the path does not grow).
        if PayloadFormat.isScalar(T.self) {
            return try node.decode(T.self, at: node.start, key: nil)
        }
        return try T(from: node)
    }
}
