import Foundation

/// A fetched page's bytes as text, in the charset it declares: the `Content-Type` header's
/// `charset`, else a `<meta charset>` or `http-equiv` in the first 1,024 bytes, else a byte order
/// mark, else UTF-8. Bytes that are not valid in the charset become U+FFFD; nothing fails.
enum PageText {
    static func decode(_ bytes: [UInt8], contentType: String?) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return String(data: Data(bytes), encoding: .utf16) ?? String(decoding: bytes, as: UTF8.self)
        }
        let declared = contentType.flatMap(charset(inHeader:)) ?? charset(inMarkup: bytes)
        switch declared {
        case "iso-8859-1", "latin1", "us-ascii", "ascii":
            // NB: browsers read all three as windows-1252, which agrees with Latin-1 outside 0x80–0x9F.
            return windows1252(bytes)
        case "windows-1252", "cp1252": return windows1252(bytes)
        case "utf-16", "utf-16le", "utf-16be":
            return String(data: Data(bytes), encoding: .utf16) ?? String(decoding: bytes, as: UTF8.self)
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `text/html; charset="ISO-8859-1"` → `iso-8859-1`.
    static func charset(inHeader header: String) -> String? {
        for parameter in header.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")).lowercased()
            }
        }
        return nil
    }

    /// The charset a page's first 1,024 bytes declare (`<meta charset=…>` or `content="…; charset=…"`).
    static func charset(inMarkup bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        guard let range = head.range(of: "charset=") else { return nil }
        let value = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
            .prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return value.isEmpty ? nil : String(value)
    }

    /// Windows-1252: Latin-1 with the printable characters it puts at 0x80–0x9F.
    static func windows1252(_ bytes: [UInt8]) -> String {
        let high: [UInt32] = [
            0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD,
            0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0xFFFD, 0x017E, 0x0178,
        ]
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }
}
