import Foundation

/// The layout of ``WatchPayload``'s binary encoding.
///
/// A payload is the marker byte, the format version, then one value. Every value starts with a
/// tag byte naming its kind, so a reader can name the field at fault, skip keys it does not know
/// and tell a missing value from a null one:
///
/// | tag | kind | body |
/// |---|---|---|
/// | 0 | null | — |
/// | 1, 2 | false, true | — |
/// | 3 | signed integer | zigzag LEB128 |
/// | 4 | unsigned integer | LEB128 |
/// | 5 | floating point | the `Double`'s 8 bytes, little-endian |
/// | 6 | string | LEB128 byte count, then UTF-8 |
/// | 7 | bytes (`Data`) | LEB128 byte count, then the bytes |
/// | 8 | array | LEB128 element count, LEB128 byte count of the elements, then the elements |
/// | 9 | keyed | LEB128 entry count, LEB128 byte count of the entries, then per entry the key (LEB128 byte count, UTF-8) and the value |
///
/// Composites carry their byte count, so skipping one costs the same whatever it holds.
enum PayloadFormat {
    /// The first byte of a binary payload: never the first byte of UTF-8 text, so never of JSON.
    static let marker: UInt8 = 0xF5
    /// The version of the layout above.
    static let version: UInt8 = 1
    /// The most levels of nesting a decoder follows, as `JSONDecoder`'s.
    static let maximumDepth = 512

    /// The kind of a value.
    enum Tag: UInt8 {
        case null = 0
        case `false` = 1
        case `true` = 2
        case int = 3
        case uint = 4
        case double = 5
        case string = 6
        case bytes = 7
        case array = 8
        case keyed = 9

        /// The name used in errors.
        var name: String {
            switch self {
            case .null: "null"
            case .false, .true: "a boolean"
            case .int, .uint: "an integer"
            case .double: "a floating-point number"
            case .string: "a string"
            case .bytes: "bytes"
            case .array: "an array"
            case .keyed: "a keyed container"
            }
        }
    }

    /// Whether `T` is one of the scalars the encoder writes and the decoder reads directly, without
    /// the value's own `encode(to:)` or `init(from:)`.
    static func isScalar<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self || T.self == Data.self
    }

    /// Appends `value` as LEB128.
    @inline(__always)
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The bytes `value` takes as LEB128.
    static func varintSize(_ value: UInt64) -> Int {
        var (rest, size) = (value, 1)
        while rest >= 0x80 {
            rest >>= 7
            size += 1
        }
        return size
    }

    /// Writes `value` as LEB128 into `bytes` at `offset`, which has room for it
    /// (``varintSize(_:)``); returns the offset after it.
    static func writeVarint(_ value: UInt64, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var (rest, at) = (value, offset)
        while rest >= 0x80 {
            bytes[at] = UInt8(truncatingIfNeeded: rest) | 0x80
            rest >>= 7
            at += 1
        }
        bytes[at] = UInt8(rest)
        return at + 1
    }

    /// Appends a length-prefixed UTF-8 string (no tag).
    @inline(__always)
    static func appendText(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }
}
