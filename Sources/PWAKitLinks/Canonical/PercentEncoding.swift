/// Percent-encoding normalisation of one URL component (RFC 3986 §6.2.2.2): escapes of
/// unreserved characters decoded, other escapes in upper case, a `%` that starts no escape
/// written `%25`, and every byte outside `allowed` (spaces, non-ASCII UTF-8, `"<>\^`{|}`) escaped.
enum PercentNormalization {
    /// `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
            || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    /// Sub-delimiters `! $ & ' ( ) * + , ; =`, with `:` and `@`: the rest of a path segment's characters.
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
    }

    /// A path: its characters and `/`.
    static func isPathAllowed(_ byte: UInt8) -> Bool { isPathCharacter(byte) || byte == 0x2F }

    /// A query or fragment: a path's characters, `/` and `?`.
    static func isQueryAllowed(_ byte: UInt8) -> Bool { isPathCharacter(byte) || byte == 0x2F || byte == 0x3F }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10 }

    /// `text` normalised, keeping every byte `allowed` accepts as it is.
    static func normalize(_ text: Substring, allowed: (UInt8) -> Bool) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        func escape(_ byte: UInt8) { output += [0x25, hexDigit(byte >> 4), hexDigit(byte & 0x0F)] }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x25, index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if isUnreserved(decoded) { output.append(decoded) } else { escape(decoded) }
                index += 3
                continue
            }
            if byte != 0x25, allowed(byte) { output.append(byte) } else { escape(byte) }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every escape decoded (bytes that are not UTF-8 replaced), for matching names.
    static func decode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25, index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
