/// Percent-encoding of path segments and query names and values (RFC 3986).
///
/// Writing encodes every byte of the UTF-8 form except the unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`), with uppercase hex digits; reading accepts any valid escape, in either
/// case, and raw non-ASCII text. `+` is a plus sign, not a space.
enum PercentEncoding {
    /// Why text could not be decoded.
    enum Failure: Error {
        /// A `%` not followed by two hex digits.
        case badEscape
        /// The decoded bytes are not UTF-8.
        case notUTF8
    }

    /// `text` with every byte outside the unreserved set written as `%XX`.
    static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text the bytes `encoded` spell.
    static func decode(_ encoded: some Collection<UInt8>) throws(Failure) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var iterator = encoded.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badEscape
            }
            bytes.append(high << 4 | low)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    /// Whether `text` holds a C0 control character or DEL; with `allowingLineBreaks`, tab, LF and
    /// CR are allowed (query values may hold text with line breaks).
    static func containsControlCharacter(_ text: String, allowingLineBreaks: Bool = false) -> Bool {
        text.utf8.contains { byte in
            guard byte < 0x20 || byte == 0x7F else { return false }
            return !(allowingLineBreaks && (byte == 0x09 || byte == 0x0A || byte == 0x0D))
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
