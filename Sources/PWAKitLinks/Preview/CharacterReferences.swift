/// HTML character references in text and attribute values: numeric (`&#233;`, `&#xE9;`) and the
/// named ones pages use in titles and descriptions. An unknown or malformed reference stays as it is.
enum CharacterReferences {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "middot": "·", "bull": "•", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢",
        "deg": "°", "times": "×", "eacute": "é", "egrave": "è", "agrave": "à", "aacute": "á", "ccedil": "ç",
        "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß", "ntilde": "ñ",
    ]

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(32).firstIndex(of: ";") else {
                output += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            if let scalar = numeric(name) {
                output.unicodeScalars.append(scalar)
            } else if let value = named[String(name)] {
                output += value
            } else {
                output += "&" + name + ";"
            }
            rest = after[after.index(after: semicolon)...]
        }
        return output + rest
    }

    /// `#233` or `#xE9` as a scalar; NUL, surrogates and out-of-range values become U+FFFD.
    static func numeric(_ name: Substring) -> Unicode.Scalar? {
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            value = UInt32(digits.dropFirst().prefix(8), radix: 16)
        } else {
            value = UInt32(digits.prefix(10), radix: 10)
        }
        guard let value else { return nil }
        return value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}
