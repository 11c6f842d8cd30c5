/// Collects issues while the validator walks a document, and renders JSON paths.
struct ValidationContext {
    private(set) var issues: [ValidationIssue] = []

    mutating func error(_ path: String, _ code: ValidationIssue.Code, _ message: String) {
        issues.append(ValidationIssue(severity: .error, path: path, message: message, code: code))
    }

    mutating func warning(_ path: String, _ code: ValidationIssue.Code, _ message: String) {
        issues.append(ValidationIssue(severity: .warning, path: path, message: message, code: code))
    }

    /// `origins` + `allowed` → `origins.allowed`; keys that are not identifiers are quoted:
    /// `origins.grants["*.example.com"]`.
    static func path(_ base: String, key: String) -> String {
        let scalars = key.unicodeScalars
        let isIdentifier =
            scalars.first.map { $0.isASCIILetter || $0 == "_" || $0 == "$" } ?? false
            && scalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "$" }
        if isIdentifier { return base.isEmpty ? key : "\(base).\(key)" }
        return "\(base)[\(quoted(key))]"
    }

    /// `origins.allowed` + 2 → `origins.allowed[2]`.
    static func path(_ base: String, index: Int) -> String {
        "\(base)[\(index)]"
    }

    /// A string in double quotes with quotes, backslashes and control characters escaped,
    /// and cut to 80 characters so hostile input cannot flood a report.
    static func quoted(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars.prefix(80) {
            switch scalar {
            case "\"": body += "\\\""
            case "\\": body += "\\\\"
            case "\n": body += "\\n"
            case "\t": body += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                    body += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    body.unicodeScalars.append(scalar)
                }
            }
        }
        if text.unicodeScalars.count > 80 { body += "…" }
        return "\"\(body)\""
    }

    /// Checks that `value` is an object; reports duplicate keys (errors) and keys outside
    /// `known` (warnings; nil accepts any key). Returns each key's first value, in order.
    mutating func object(
        _ value: ConfigurationJSON, at path: String, known: [String]?, describedAs what: String = "an object"
    ) -> [ConfigurationJSON.Member]? {
        guard let members = value.members else {
            wrongType(value, at: path, expected: what)
            return nil
        }
        var seen: Set<String> = []
        var unique: [ConfigurationJSON.Member] = []
        for member in members {
            let memberPath = Self.path(path, key: member.key)
            guard seen.insert(member.key).inserted else {
                error(memberPath, .duplicateKey, "duplicate key \(Self.quoted(member.key)) (line \(member.line))")
                continue
            }
            if let known, !known.contains(member.key) {
                let location = path.isEmpty ? "at the top level" : "in \(path)"
                warning(memberPath, .unknownKey, "unknown key \(Self.quoted(member.key)) \(location) is ignored")
            }
            unique.append(member)
        }
        return unique
    }

    mutating func wrongType(_ value: ConfigurationJSON, at path: String, expected: String) {
        error(path, .wrongType, "expected \(expected), found \(Self.describe(value))")
    }

    /// `string "abc"`, `number 1.5`, `array`, `null`.
    static func describe(_ value: ConfigurationJSON) -> String {
        switch value {
        case .string(let text): "string \(quoted(text))"
        case .number(let text): "number \(text.prefix(40))"
        case .bool(let flag): "boolean \(flag)"
        default: value.typeName
        }
    }

    /// The value of a required string field, reporting when it is missing or not a string.
    mutating func requiredString(_ members: [ConfigurationJSON.Member], _ key: String, in path: String) -> String? {
        let fieldPath = Self.path(path, key: key)
        guard let value = members.first(where: { $0.key == key })?.value else {
            error(fieldPath, .missingField, "required field \(Self.quoted(key)) is missing")
            return nil
        }
        guard let text = value.stringValue else {
            wrongType(value, at: fieldPath, expected: "a string")
            return nil
        }
        return text
    }

    /// Reports when an optional field is present but not a boolean.
    mutating func optionalBool(_ members: [ConfigurationJSON.Member], _ key: String, in path: String) {
        guard let value = members.first(where: { $0.key == key })?.value else { return }
        if case .bool = value { return }
        wrongType(value, at: Self.path(path, key: key), expected: "a boolean")
    }
}
