/// Reads ``PayloadFormat`` values from a byte array, never past `end`.
struct PayloadCursor {
    /// What is wrong with the bytes; the decoder adds the coding path.
    struct Malformed: Error {
        let message: String
    }

    let bytes: [UInt8]
    var offset: Int
    let end: Int

    mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < end else { throw Malformed(message: "truncated payload") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func tag() throws(Malformed) -> PayloadFormat.Tag {
        let byte = try byte()
        guard let tag = PayloadFormat.Tag(rawValue: byte) else { throw Malformed(message: "unknown value tag \(byte)") }
        return tag
    }

    /// The kind of the value at the cursor, without moving.
    func peekTag() throws(Malformed) -> PayloadFormat.Tag {
        var copy = self
        return try copy.tag()
    }

    mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            // NB: the tenth byte may carry only the top bit of a 64-bit value.
            if shift == 63, byte > 1 { throw Malformed(message: "integer overflows 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A byte count that must fit in what is left.
    mutating func length() throws(Malformed) -> Int {
        let value = try varint()
        guard value <= UInt64(end - offset) else { throw Malformed(message: "length \(value) runs past the end") }
        return Int(value)
    }

    mutating func text() throws(Malformed) -> String {
        let count = try length()
        defer { offset += count }
        guard let text = String(validating: bytes[offset..<(offset + count)], as: UTF8.self) else {
            throw Malformed(message: "invalid UTF-8")
        }
        return text
    }

    mutating func double() throws(Malformed) -> Double {
        guard end - offset >= 8 else { throw Malformed(message: "truncated payload") }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return Double(bitPattern: bits)
    }

    /// The header of an array or keyed container: its element count and where its elements end.
    mutating func composite() throws(Malformed) -> (count: Int, end: Int) {
        let count = try varint()
        let length = try length()
        // NB: every element takes at least a byte, so a count larger than the bytes is a lie that
        // would otherwise size allocations.
        guard count <= UInt64(length) else { throw Malformed(message: "\(count) elements cannot fit in \(length) bytes") }
        return (Int(count), offset + length)
    }

    /// Moves past the body of a value whose tag was just read.
    mutating func skipBody(of tag: PayloadFormat.Tag) throws(Malformed) {
        switch tag {
        case .null, .false, .true: break
        case .int, .uint: _ = try varint()
        case .double: _ = try double()
        case .string, .bytes: offset += try length()
        case .array, .keyed: offset = try composite().end
        }
    }

    /// Moves past one whole value.
    mutating func skipValue() throws(Malformed) {
        try skipBody(of: try tag())
    }
}
