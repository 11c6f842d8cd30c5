import Foundation

/// Where the primitives of a binary wire frame or record go: fixed-width big-endian integers,
/// LEB128 lengths, and length-prefixed bytes and strings, all made of the two primitives below.
///
/// Frames are written through a ``ByteCounter`` first, for their exact size, then through a
/// ``RawByteWriter`` into a `Data` of that size; records into a ``ByteWriter``.
protocol ByteSink {
    /// Appends one byte.
    mutating func byte(_ value: UInt8)
    /// Appends `bytes`.
    mutating func bytes(_ bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    mutating func uint64(_ value: UInt64) {
        // NB: the eight bytes appended at once, not one bounds-checked append each.
        withUnsafeBytes(of: value.bigEndian) { bytes($0) }
    }

    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }

    mutating func length(_ value: Int) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            byte(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        byte(UInt8(rest))
    }

    mutating func data(_ value: Data) {
        length(value.count)
        value.withUnsafeBytes { bytes($0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            length(utf8.count)
            bytes(UnsafeRawBufferPointer(utf8))
        }
    }

    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes($0) }
    }
}

/// Appends to a growing byte array.
struct ByteWriter: ByteSink {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// A writer that appends to `bytes` (taken over, not copied, when nothing else holds them).
    init(appendingTo bytes: consuming [UInt8]) { self.bytes = bytes }

    /// The bytes written, leaving the writer empty.
    mutating func take() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) { self.bytes.append(contentsOf: bytes) }
}

/// Counts what would be written: the exact size of a frame, before it is written.
struct ByteCounter: ByteSink {
    private(set) var count = 0

    mutating func byte(_ value: UInt8) { count += 1 }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
}

/// Writes into memory sized beforehand (by a ``ByteCounter``); writing past its end traps.
struct RawByteWriter: ByteSink {
    private let target: UnsafeMutableRawBufferPointer
    private(set) var offset = 0

    init(_ target: UnsafeMutableRawBufferPointer) { self.target = target }

    mutating func byte(_ value: UInt8) {
        precondition(offset < target.count, "write past the sized end")
        target[offset] = value
        offset += 1
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        precondition(bytes.count <= target.count - offset, "write past the sized end")
        UnsafeMutableRawBufferPointer(rebasing: target[offset..<(offset + bytes.count)]).copyMemory(from: bytes)
        offset += bytes.count
    }
}
