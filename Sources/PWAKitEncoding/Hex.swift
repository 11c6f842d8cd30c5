/// Hexadecimal text of bytes (lowercase unless asked otherwise), and back.
public enum Hex {
    @usableFromInline static let digits = Array("0123456789abcdef".utf8)
    @usableFromInline static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// The bytes as lowercase hexadecimal digits, two per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        append(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the bytes' hexadecimal digits, two per byte, to `out` (UTF-8), upper case when
    /// `uppercase`.
    ///
    /// NB: inlinable, so a caller's loop is specialised for its byte sequence; unspecialised, a
    /// call per byte went through the generic sequence (about 2.5 µs per UUID's text).
    @inlinable
    public static func append(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, to out: inout [UInt8]) {
        let table = uppercase ? upperDigits : digits
        for byte in bytes {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0x0F)])
        }
    }

    /// The bytes of hexadecimal text (either case); `nil` for an odd length or a character that
    /// is not a hexadecimal digit.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
