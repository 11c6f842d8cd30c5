/// The cursor behind ``JSONParser``: one pass over UTF-8 bytes, tracking the path for errors.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Path components of the value being read (keys or `[n]`), for error messages.
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var pathString: String {
        var out = ""
        for component in path {
            switch component {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += key
            case .index(let index):
                out += "[\(index)]"
            }
        }
        return out
    }

    func error(_ code: JSONParseError.Code, _ message: String) -> JSONParseError {
        JSONParseError(code: code, message: message, offset: index, path: pathString)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func readValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd, "expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default:
            throw error(.unexpectedCharacter, "unexpected character \(describeByte(bytes[index]))")
        }
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        var offset = 0
        for expected in literal.utf8 {
            guard index + offset < bytes.count else {
                throw error(.unexpectedEnd, "the text ends inside '\(literal)'")
            }
            guard bytes[index + offset] == expected else {
                throw error(
                    .unexpectedCharacter,
                    "unexpected text starting with \(describeByte(bytes[index])); expected a JSON value (an object, array, string, number, true, false or null)"
                )
            }
            offset += 1
        }
        index += offset
    }

    private mutating func readObject() throws(JSONParseError) -> JSONValue {
        guard path.count < maxDepth else {
            throw error(.tooDeep, "nesting deeper than \(maxDepth) levels")
        }
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error(.unexpectedCharacter, "expected a string key")
            }
            let keyStart = index
            let key = try readString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error(index < bytes.count ? .unexpectedCharacter : .unexpectedEnd, "expected ':' after key")
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            if object[key] != nil {
                let failure = JSONParseError(
                    code: .duplicateKey, message: "duplicate key \"\(key)\"", offset: keyStart,
                    path: pathString)
                throw failure
            }
            object[key] = try readValue()
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw error(.unexpectedCharacter, "expected ',' or '}' in object")
            }
        }
    }

    private mutating func readArray() throws(JSONParseError) -> JSONValue {
        guard path.count < maxDepth else {
            throw error(.tooDeep, "nesting deeper than \(maxDepth) levels")
        }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            path.append(.index(array.count))
            array.append(try readValue())
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(array)
            default: throw error(.unexpectedCharacter, "expected ',' or ']' in array")
            }
        }
    }

    private mutating func readNumber() throws(JSONParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "a number needs digits")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "leading zeros are not allowed")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "a fraction needs digits")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "an exponent needs digits")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let length = index - start
        if isInteger && length <= 15 {
            var value: Int64 = 0
            var position = start
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            while position < index {
                value = value * 10 + Int64(bytes[position] &- 48)
                position += 1
            }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else {
            throw error(.invalidNumber, "malformed number")
        }
        guard value.isFinite else {
            index = start
            throw error(.numberOutOfRange, "number \(text.prefix(40)) is out of range")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    mutating func readString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let string = String(validating: slice, as: UTF8.self) else {
                    index = start
                    throw error(.invalidUTF8, "string is not valid UTF-8")
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.controlCharacter, "control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated string") }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw error(.invalidUTF8, "string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try readEscape(into: &buffer)
            case 0..<0x20:
                throw error(.controlCharacter, "control character in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error(.unexpectedEnd, "unterminated string")
    }

    private mutating func readEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(.invalidEscape, "lone high surrogate") }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.invalidEscape, "high surrogate not followed by a low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.invalidEscape, "lone low surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw error(.invalidEscape, "invalid unicode escape")
            }
            buffer.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw error(.invalidEscape, "invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd, "short unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error(.invalidEscape, "invalid hex digit in unicode escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
