/// Writes ``JSONValue`` as compact JSON text.
///
/// Object keys are sorted so equal values always produce equal text. Non-finite numbers,
/// which JSON cannot express, are written as `null` (as JavaScript's `JSON.stringify` does).
/// U+2028 and U+2029 are escaped so the text is also a valid JavaScript expression in any
/// engine.
public enum JSONSerializer {
    /// The compact JSON text of `value`.
    public static func serialize(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    /// Appends the compact JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let bool): out += bool ? "true" : "false"
        case .number(let number): writeNumber(number, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array(let array):
            out += "["
            var first = true
            for element in array {
                if !first { out += "," }
                first = false
                write(element, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            var first = true
            for key in object.keys.sorted() {
                if !first { out += "," }
                first = false
                writeString(key, into: &out)
                out += ":"
                write(object[key]!, into: &out)
            }
            out += "}"
        }
    }

    /// Appends `number` as JSON: integers without a fraction, others in shortest round-trip form.
    public static func writeNumber(_ number: Double, into out: inout String) {
        guard number.isFinite else {
            out += "null"
            return
        }
        if number.rounded(.towardZero) == number, abs(number) < 1e15 {
            out += String(Int64(number))
        } else {
            out += number.description
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, into out: inout String) {
        out += "\""
        var needsEscaping = false
        for byte in string.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            out += string
            out += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
