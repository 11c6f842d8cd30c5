import Foundation

/// Removes personal data from text before it is logged or sent: email addresses, phone numbers,
/// bearer tokens and JSON Web Tokens, long digit runs (card and account numbers), and the values
/// of properties whose names say they are personal (`email`, `phone`, `password`, `token`, …).
public struct Redactor: Sendable {
    /// What replaces a redacted value.
    public static let mask = "<redacted>"

    /// Property names (and name parts) whose values are always redacted.
    public var sensitiveNames: Set<String>

    /// A redactor with the platform's list of sensitive names.
    public init(
        sensitiveNames: Set<String> = [
            "email", "phone", "password", "token", "secret", "name", "address", "ssn", "card", "iban", "pin",
            "authorization", "cookie",
        ]
    ) {
        self.sensitiveNames = sensitiveNames
    }

    /// Whether a property named `key` holds personal data by its name (`user_email`, `accessToken`).
    public func isSensitive(key: String) -> Bool {
        let lowered = key.lowercased()
        let parts = lowered.split(whereSeparator: { !$0.isLetter })
        return parts.contains { sensitiveNames.contains(String($0)) } || sensitiveNames.contains { lowered.hasSuffix($0) }
    }

    /// `text` with every email address, phone number, token and long digit run replaced by the mask.
    public func redact(_ text: String) -> String {
        let text = redactNumbers(text)
        var output = ""
        output.reserveCapacity(text.count)
        var current = Substring()
        var start = text.startIndex
        // NB: split on whitespace only, keeping it, so the text's shape survives.
        for index in text.indices {
            if text[index].isWhitespace {
                current = text[start..<index]
                output += redactWord(current)
                output.append(text[index])
                start = text.index(after: index)
            }
        }
        current = text[start...]
        output += redactWord(current)
        return output
    }

    private func redactWord(_ word: Substring) -> String {
        guard !word.isEmpty else { return "" }
        let trimmed = word.trimmingCharacters(in: .punctuationCharacters)
        if isEmail(trimmed) || isToken(trimmed) {
            return word.replacingOccurrences(of: trimmed, with: Self.mask)
        }
        if let equals = word.firstIndex(of: "="), isSensitive(key: String(word[..<equals])) {
            return String(word[...equals]) + Self.mask
        }
        return String(word)
    }

    func isEmail(_ word: String) -> Bool {
        guard let at = word.firstIndex(of: "@"), at != word.startIndex else { return false }
        let domain = word[word.index(after: at)...]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("@")
    }

    func isToken(_ word: String) -> Bool {
        // A JSON Web Token: three base64url parts, the first starting `eyJ`.
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].hasPrefix("eyJ"), parts.allSatisfy({ !$0.isEmpty }) { return true }
        // A long opaque secret: 32 or more letters, digits, `-` and `_`, mixing letters and digits.
        guard word.count >= 32,
            word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return false }
        return word.contains(where: \.isLetter) && word.contains(where: \.isNumber)
    }

    /// Masks runs of digits with separators (space, `-`, `.`, parentheses) that hold at least 9
    /// digits (phone numbers with their area code, card and account numbers), or at least 7 after
    /// a `+` (an international number). A date (`2026-11-26`, 8 digits) is left alone.
    func redactNumbers(_ text: String) -> String {
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            let startsRun =
                characters[index].isNumber
                || (characters[index] == "+" || characters[index] == "(")
                    && index + 1 < characters.count && characters[index + 1].isNumber
            guard startsRun else {
                output.append(characters[index])
                index += 1
                continue
            }
            var end = index
            var digits = 0
            var lastDigit = index
            while end < characters.count, characters[end].isNumber || " -.()+".contains(characters[end]) {
                if characters[end].isNumber {
                    digits += 1
                    lastDigit = end
                } else if end > index, " -.".contains(characters[end]), end + 1 < characters.count,
                    !characters[end + 1].isNumber && characters[end + 1] != "("
                {
                    break
                }
                end += 1
            }
            let international = characters[index] == "+"
            if digits >= 9 || (international && digits >= 7) {
                output += Self.mask
            } else {
                output += String(characters[index...lastDigit])
            }
            index = lastDigit + 1
        }
        return output
    }
}
