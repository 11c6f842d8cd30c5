public import Foundation

/// A property-list value, as Apple's XML property lists hold them: the types a merge must keep
/// exactly as they were (an `<integer>` stays an integer, a `<true/>` a boolean).
public enum PropertyList: Sendable, Hashable {
    /// `<string>`.
    case string(String)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>`.
    case integer(Int64)
    /// `<real>`, kept as its text so a value is written back as it was read.
    case real(String)
    /// `<date>`, kept as its ISO 8601 text.
    case date(String)
    /// `<data>`.
    case data(Data)
    /// `<array>`.
    case array([PropertyList])
    /// `<dict>`; written with its keys sorted, as Xcode writes them.
    case dictionary([String: PropertyList])

    /// The dictionary's members, when this is one.
    public var dictionaryValue: [String: PropertyList]? {
        if case .dictionary(let members) = self { members } else { nil }
    }

    /// The array's elements, when this is one.
    public var arrayValue: [PropertyList]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The document in Apple's XML format, as Xcode writes it: the XML declaration, the DOCTYPE,
    /// tab indents, dictionary keys sorted, a trailing newline.
    public func xmlDocument() -> Data {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
            #"<plist version="1.0">"#,
        ]
        append(to: &lines, depth: 0)
        lines.append("</plist>")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    private func append(to lines: inout [String], depth: Int) {
        let indent = String(repeating: "\t", count: depth)
        switch self {
        case .string(let text): lines.append("\(indent)<string>\(Self.escaped(text))</string>")
        case .bool(let flag): lines.append(indent + (flag ? "<true/>" : "<false/>"))
        case .integer(let number): lines.append("\(indent)<integer>\(number)</integer>")
        case .real(let text): lines.append("\(indent)<real>\(Self.escaped(text))</real>")
        case .date(let text): lines.append("\(indent)<date>\(Self.escaped(text))</date>")
        case .data(let bytes): lines.append("\(indent)<data>\(bytes.base64EncodedString())</data>")
        case .array(let elements):
            guard !elements.isEmpty else {
                lines.append("\(indent)<array/>")
                return
            }
            lines.append("\(indent)<array>")
            for element in elements { element.append(to: &lines, depth: depth + 1) }
            lines.append("\(indent)</array>")
        case .dictionary(let members):
            guard !members.isEmpty else {
                lines.append("\(indent)<dict/>")
                return
            }
            lines.append("\(indent)<dict>")
            for key in members.keys.sorted() {
                lines.append("\(indent)\t<key>\(Self.escaped(key))</key>")
                members[key]?.append(to: &lines, depth: depth + 1)
            }
            lines.append("\(indent)</dict>")
        }
    }

    /// `text` with `&`, `<` and `>` written as entities.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
