import Foundation

/// Reads the primitives a ``ByteSink`` writes; every failure names the field being read.
///
/// It reads the bytes where they are (a frame's `Data`, a record's bytes), so it is made and
/// used inside the `withUnsafeBytes` that lends them, and what it returns owns copies.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// The envelope path prefixed to field names in errors, e.g. `request`.
    let scope: String

    init(_ bytes: UnsafeRawBufferPointer, offset: Int, scope: String) {
        self.bytes = bytes
        self.offset = offset
        self.scope = scope
    }

    var isAtEnd: Bool { offset == bytes.count }

    /// Reads a count of items each at least `minimumSize` bytes long, checked against the bytes
    /// left: a forged count cannot make a reader reserve room for more items than could follow.
    mutating func count(_ field: String, minimumSize: Int) throws(WatchLinkError) -> Int {
        let count = try length(field)
        guard count <= (bytes.count - offset) / minimumSize else {
            throw failure(field, "\(count) items cannot fit in the \(bytes.count - offset) bytes left")
        }
        return count
    }

    func failure(_ field: String, _ message: String) -> WatchLinkError {
        WatchLinkError(.invalidEnvelope, "unreadable frame: \(message)", details: ["field": "\(scope).\(field)"])
    }

    mutating func byte(_ field: String) throws(WatchLinkError) -> UInt8 {
        guard offset < bytes.count else { throw failure(field, "truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint64(_ field: String) throws(WatchLinkError) -> UInt64 {
        guard bytes.count - offset >= 8 else { throw failure(field, "truncated") }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return value
    }

    mutating func int64(_ field: String) throws(WatchLinkError) -> Int64 { Int64(bitPattern: try uint64(field)) }

    mutating func length(_ field: String) throws(WatchLinkError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte(field)
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { break }
            shift += 7
            guard shift < 35 else { throw failure(field, "length too long") }
        }
        guard value <= UInt64(bytes.count - offset) else { throw failure(field, "length \(value) past the end") }
        return Int(value)
    }

    mutating func data(_ field: String) throws(WatchLinkError) -> Data {
        let count = try length(field)
        defer { offset += count }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
    }

    mutating func string(_ field: String) throws(WatchLinkError) -> String {
        let count = try length(field)
        defer { offset += count }
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
        else {
            throw failure(field, "invalid UTF-8")
        }
        return text
    }

    mutating func uuid(_ field: String) throws(WatchLinkError) -> UUID {
        guard bytes.count - offset >= 16 else { throw failure(field, "truncated") }
        let o = offset
        offset += 16
        return UUID(
            uuid: (
                bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3], bytes[o + 4], bytes[o + 5], bytes[o + 6], bytes[o + 7],
                bytes[o + 8], bytes[o + 9], bytes[o + 10], bytes[o + 11], bytes[o + 12], bytes[o + 13], bytes[o + 14],
                bytes[o + 15]
            ))
    }
}
