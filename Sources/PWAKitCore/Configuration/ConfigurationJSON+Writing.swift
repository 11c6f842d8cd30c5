extension ConfigurationJSON {
    /// The value as indented JSON: two spaces per level, members in their stored order,
    /// short arrays of scalars on one line, empty containers as `[]` and `{}`.
    func prettyPrinted() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += Self.escaped(text)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
            } else if let inline = inlineArray(elements), inline.count + indent <= 100 {
                output += inline
            } else {
                output += "[\n"
                for (offset, element) in elements.enumerated() {
                    output += String(repeating: " ", count: indent + 2)
                    element.write(to: &output, indent: indent + 2)
                    output += offset == elements.count - 1 ? "\n" : ",\n"
                }
                output += String(repeating: " ", count: indent) + "]"
            }
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (offset, member) in members.enumerated() {
                output += String(repeating: " ", count: indent + 2) + Self.escaped(member.key) + ": "
                member.value.write(to: &output, indent: indent + 2)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        }
    }

    private func inlineArray(_ elements: [ConfigurationJSON]) -> String? {
        var parts: [String] = []
        for element in elements {
            switch element {
            case .array, .object: return nil
            default: parts.append(element.prettyPrinted())
            }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// A JSON string literal, escaped as ``JSONSerializer`` escapes strings.
    static func escaped(_ text: String) -> String {
        var output = ""
        JSONSerializer.writeString(text, into: &output)
        return output
    }
}
