import Foundation

/// One value being decoded: the decoder handed to a `Decodable`, reading the value whose tag is at
/// `start` and which must end by `end`.
final class PayloadDecodingNode: Decoder {
    let bytes: [UInt8]
    let start: Int
    let end: Int
    private let parent: PayloadDecodingNode?
    private let key: (any CodingKey)?
    private let depth: Int

    init(bytes: [UInt8], start: Int, end: Int, parent: PayloadDecodingNode?, key: (any CodingKey)?) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.parent = parent
        self.key = key
        self.depth = (parent?.depth ?? -1) + 1
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: PayloadDecodingNode? = self
        while let current = node {
            if let key = current.key { path.append(key) }
            node = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var cursor = try open(.keyed, as: [String: Any].self)
        let (count, entriesEnd) = try guarded(nil) { () throws(PayloadCursor.Malformed) in try cursor.composite() }
        var entries: [(name: String, offset: Int)] = []
        // NB: an entry takes at least two bytes, so a lied count sizes nothing beyond the bytes.
        entries.reserveCapacity(min(count, (entriesEnd - cursor.offset) / 2))
        cursor = PayloadCursor(bytes: bytes, offset: cursor.offset, end: entriesEnd)
        for _ in 0..<count {
            let name = try guarded(nil) { () throws(PayloadCursor.Malformed) in try cursor.text() }
            entries.append((name, cursor.offset))
            // NB: a value that lies about its size is named by its key.
            try guarded(PayloadKey(stringValue: name)) { () throws(PayloadCursor.Malformed) in try cursor.skipValue() }
        }
        try guarded(nil) { () throws(PayloadCursor.Malformed) in
            guard cursor.offset == entriesEnd else {
                throw PayloadCursor.Malformed(message: "keyed container longer than its \(count) entries")
            }
        }
        return KeyedDecodingContainer(PayloadKeyedDecodingContainer<Key>(node: self, entries: entries, end: entriesEnd))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var cursor = try open(.array, as: [Any].self)
        let (count, elementsEnd) = try guarded(nil) { () throws(PayloadCursor.Malformed) in try cursor.composite() }
        let elements = PayloadCursor(bytes: bytes, offset: cursor.offset, end: elementsEnd)
        // NB: the count is checked against the elements (one shallow pass), so a decoder that sizes
        // storage by `count` is never told more than the bytes hold, and none is silently dropped.
        cursor = elements
        for position in 0..<count {
            try guarded(PayloadKey(intValue: position)) { () throws(PayloadCursor.Malformed) in try cursor.skipValue() }
        }
        try guarded(nil) { () throws(PayloadCursor.Malformed) in
            guard cursor.offset == elementsEnd else {
                throw PayloadCursor.Malformed(message: "array longer than its \(count) elements")
            }
        }
        return PayloadUnkeyedDecodingContainer(node: self, cursor: elements, count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PayloadSingleValueDecodingContainer(node: self)
    }

    /// A cursor past this value's tag, which must be `tag`.
    private func open(_ tag: PayloadFormat.Tag, as type: Any.Type) throws -> PayloadCursor {
        guard depth < PayloadFormat.maximumDepth else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "nested deeper than \(PayloadFormat.maximumDepth) levels"))
        }
        var cursor = PayloadCursor(bytes: bytes, offset: start, end: end)
        let found = try guarded(nil) { () throws(PayloadCursor.Malformed) in try cursor.tag() }
        guard found == tag else { throw mismatch(type, found: found, key: nil) }
        return cursor
    }

    // MARK: Values

    /// Whether the value at `offset` is null.
    func isNull(at offset: Int, key: (any CodingKey)?) throws -> Bool {
        let cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
        return try guarded(key) { () throws(PayloadCursor.Malformed) in try cursor.peekTag() } == .null
    }

    func decodeBool(at offset: Int, key: (any CodingKey)?) throws -> Bool {
        var cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
        switch try guarded(key, { () throws(PayloadCursor.Malformed) in try cursor.tag() }) {
        case .true: return true
        case .false: return false
        case let other: throw mismatch(Bool.self, found: other, key: key)
        }
    }

    func decodeString(at offset: Int, key: (any CodingKey)?) throws -> String {
        var cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
        let value = try guarded(key) { () throws(PayloadCursor.Malformed) -> String? in
            try cursor.tag() == .string ? try cursor.text() : nil
        }
        guard let value else { throw mismatch(String.self, at: offset, key: key) }
        return value
    }

    func decodeDouble(at offset: Int, key: (any CodingKey)?) throws -> Double {
        var cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
        let value = try guarded(key) { () throws(PayloadCursor.Malformed) -> Double? in
            switch try cursor.tag() {
            case .double: try cursor.double()
            case .int: Double(Self.unzigzag(try cursor.varint()))
            case .uint: Double(try cursor.varint())
            default: nil
            }
        }
        guard let value else { throw mismatch(Double.self, at: offset, key: key) }
        return value
    }

    func decodeFloat(at offset: Int, key: (any CodingKey)?) throws -> Float {
        let value = try decodeDouble(at: offset, key: key)
        guard value.isNaN || value.isInfinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
            throw corrupted("number \(value) does not fit in Float", key: key)
        }
        return Float(value)
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at offset: Int, key: (any CodingKey)?) throws -> T {
        var cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
        let number = try guarded(key) { () throws(PayloadCursor.Malformed) -> PayloadNumber? in
            switch try cursor.tag() {
            case .int: .signed(Self.unzigzag(try cursor.varint()))
            case .uint: .unsigned(try cursor.varint())
            case .double: .double(try cursor.double())
            default: nil
            }
        }
        let value: T?
        switch number {
        case .signed(let n): value = T(exactly: n)
        case .unsigned(let n): value = T(exactly: n)
        case .double(let n): value = T(exactly: n)
        case nil: throw mismatch(T.self, at: offset, key: key)
        }
        guard let value else {
            let written =
                switch number {
                case .signed(let n)?: "\(n)"
                case .unsigned(let n)?: "\(n)"
                case .double(let n)?: "\(n)"
                case nil: ""
                }
            throw corrupted("number \(written) does not fit in \(T.self)", key: key)
        }
        return value
    }

    /// Decodes any `Decodable` at `offset`: the common scalars directly, anything else through its
    /// own `init(from:)` with a child decoder.
    func decode<T: Decodable>(_ type: T.Type, at offset: Int, key: (any CodingKey)?) throws -> T {
        if T.self == String.self { return try decodeString(at: offset, key: key) as! T }
        if T.self == Int.self { return try decodeInteger(Int.self, at: offset, key: key) as! T }
        if T.self == Double.self { return try decodeDouble(at: offset, key: key) as! T }
        if T.self == Bool.self { return try decodeBool(at: offset, key: key) as! T }
        if T.self == Data.self {
            var cursor = PayloadCursor(bytes: bytes, offset: offset, end: end)
            let data = try guarded(key) { () throws(PayloadCursor.Malformed) -> Data? in
                guard try cursor.tag() == .bytes else { return nil }
                let count = try cursor.length()
                return Data(bytes[cursor.offset..<(cursor.offset + count)])
            }
            if let data { return data as! T }
        }
        return try T(from: PayloadDecodingNode(bytes: bytes, start: offset, end: end, parent: self, key: key))
    }

    // MARK: Errors

    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ (0 &- Int64(bitPattern: value & 1))
    }

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        key.map { codingPath + [$0] } ?? codingPath
    }

    func guarded<R>(_ key: (any CodingKey)?, _ body: () throws(PayloadCursor.Malformed) -> R) throws -> R {
        do { return try body() } catch { throw corrupted(error.message, key: key) }
    }

    func corrupted(_ message: String, key: (any CodingKey)?) -> DecodingError {
        .dataCorrupted(.init(codingPath: path(key), debugDescription: message))
    }

    func mismatch(_ type: Any.Type, at offset: Int, key: (any CodingKey)?) -> DecodingError {
        let found = try? PayloadCursor(bytes: bytes, offset: offset, end: end).peekTag()
        return mismatch(type, found: found ?? .null, key: key)
    }

    func mismatch(_ type: Any.Type, found: PayloadFormat.Tag, key: (any CodingKey)?) -> DecodingError {
        let context = DecodingError.Context(codingPath: path(key), debugDescription: "expected \(type), found \(found.name)")
        return found == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }
}

/// A number as written: signed, unsigned or floating point.
private enum PayloadNumber {
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
}
