/// What a parse builds from the values it reads: ``JSONValue`` for the bridge and the API, or
/// ``ConfigurationJSON`` (members in order with their lines, numbers as written, duplicates kept)
/// for readers that report positions. One reader, one set of rules, two trees.
protocol JSONTreeBuilder {
    associatedtype Value
    associatedtype Object

    /// An empty object.
    func makeObject() -> Object
    /// Adds a member whose key starts on `line`; `false` when the key is already there and this
    /// builder refuses duplicates.
    func add(_ key: String, _ value: Value, line: Int, to object: inout Object) -> Bool
    /// The finished object.
    func finish(_ object: Object) -> Value
    /// An array.
    func array(_ elements: [Value]) -> Value
    /// A string.
    func string(_ text: String) -> Value
    /// `true` or `false`.
    func bool(_ value: Bool) -> Value
    /// `null`.
    func null() -> Value
    /// A number as written (already checked against the grammar); `nil` when it does not fit.
    func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> Value?
}

/// The one strict JSON reader (RFC 8259) behind ``JSONParser`` and the configuration reader: one
/// pass over UTF-8 bytes that tracks the path and the line for errors, bounds the nesting depth,
/// refuses invalid UTF-8, unescaped control characters and lone surrogates, and says what it
/// expected ("unexpected ','; expected a key in double quotes").
struct JSONReader<Builder: JSONTreeBuilder> {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    let builder: Builder
    var index = 0
    /// The current line (1-based) and the offset it starts at, for positions.
    private var line = 1
    private var lineStart = 0
    /// Path components of the value being read (keys or `[n]`), for error messages.
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, builder: Builder) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.builder = builder
    }

    /// Reads one whole document: optional whitespace, a value, optional whitespace, the end.
    /// A UTF-8 byte order mark is skipped when `allowingByteOrderMark`.
    mutating func readDocument(allowingByteOrderMark: Bool) throws(JSONParseError) -> Builder.Value {
        if allowingByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        guard index < bytes.count else {
            throw error(.unexpectedEnd, "the document is empty; expected a JSON value")
        }
        let value = try readValue()
        skipWhitespace()
        if index < bytes.count {
            throw error(.trailingCharacters, "unexpected \(describeCurrent()) after the end of the document")
        }
        return value
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

    func error(_ code: JSONParseError.Code, _ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = offset ?? index
        // NB: columns count Unicode scalars, so they match what an editor shows.
        let start = min(lineStart, offset)
        let prefix = UnsafeBufferPointer(rebasing: bytes[start..<min(offset, bytes.count)])
        let column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count + 1
        return JSONParseError(code: code, message: message, offset: offset, path: pathString, line: line, column: column)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func readValue() throws(JSONParseError) -> Builder.Value {
        guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of document; expected a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return builder.string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return builder.bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return builder.bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return builder.null()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default:
            throw error(.unexpectedCharacter, "unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    private func describeCurrent() -> String {
        index < bytes.count ? describe(bytes[index]) : "end of document"
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(Self.hex(UInt32(byte), width: 2))"
    }

    private static func hex(_ value: UInt32, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let available = min(count, bytes.count - index)
        let matches = literal.withUTF8Buffer { expected in
            (0..<available).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches, available == count else {
            // NB: a literal cut short by the end of the text (`tru`) is an unexpected end.
            throw error(
                matches ? .unexpectedEnd : .unexpectedCharacter, "unexpected \(describeCurrent()); expected a JSON value")
        }
        index += count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func unexpected(_ expected: String) -> JSONParseError {
        error(
            index < bytes.count ? .unexpectedCharacter : .unexpectedEnd, "unexpected \(describeCurrent()); expected \(expected)")
    }

    private mutating func readObject() throws(JSONParseError) -> Builder.Value {
        guard path.count < maxDepth else { throw error(.tooDeep, "nesting deeper than \(maxDepth) levels") }
        index += 1
        var object = builder.makeObject()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return builder.finish(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw unexpected("a key in double quotes")
            }
            let keyStart = index
            let keyLine = line
            let key = try readString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw unexpected("':' after key \"\(key)\"") }
            skipWhitespace()
            path.append(.key(key))
            let value = try readValue()
            guard builder.add(key, value, line: keyLine, to: &object) else {
                throw error(.duplicateKey, "duplicate key \"\(key)\"", at: keyStart)
            }
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return builder.finish(object) }
            throw unexpected("',' or '}'")
        }
    }

    private mutating func readArray() throws(JSONParseError) -> Builder.Value {
        guard path.count < maxDepth else { throw error(.tooDeep, "nesting deeper than \(maxDepth) levels") }
        index += 1
        var elements: [Builder.Value] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return builder.array(elements) }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try readValue())
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return builder.array(elements) }
            throw unexpected("',' or ']'")
        }
    }

    private mutating func readNumber() throws(JSONParseError) -> Builder.Value {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "numbers must not have leading zeros")
            }
        } else {
            guard consumeDigits() else { throw error(.invalidNumber, "expected a digit") }
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard consumeDigits() else { throw error(.invalidNumber, "expected a digit after the decimal point") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard consumeDigits() else { throw error(.invalidNumber, "expected a digit in the exponent") }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let value = builder.number(text, isInteger: isInteger) else {
            let written = String(decoding: text, as: UTF8.self)
            throw error(.numberOutOfRange, "number \(written.prefix(40)) is out of range", at: start)
        }
        return value
    }

    private mutating func consumeDigits() -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
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
                    throw invalidUTF8(from: start)
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            index += 1
        }
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated string") }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw invalidUTF8(from: start)
                }
                index += 1
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try readEscape(into: &buffer)
            case 0..<0x20:
                throw controlCharacter(byte)
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error(.unexpectedEnd, "unterminated string")
    }

    private func controlCharacter(_ byte: UInt8) -> JSONParseError {
        error(.controlCharacter, "control character U+\(Self.hex(UInt32(byte))) must be escaped inside a string")
    }

    /// The first byte at or after `start` that is not part of valid UTF-8, as an error at its place.
    private func invalidUTF8(from start: Int) -> JSONParseError {
        var position = start
        var lineAt = line
        var lineStartAt = lineStart
        while position < bytes.count {
            var decoder = UTF8()
            var iterator = UnsafeBufferPointer(rebasing: bytes[position...]).makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { break }
            position += UTF8.width(scalar)
            if scalar == "\n" {
                lineAt += 1
                lineStartAt = position
            }
        }
        let byte = position < bytes.count ? bytes[position] : 0
        var failure = error(.invalidUTF8, "invalid UTF-8 byte 0x\(Self.hex(UInt32(byte), width: 2))", at: position)
        let prefix = UnsafeBufferPointer(rebasing: bytes[lineStartAt..<min(position, bytes.count)])
        failure.line = lineAt
        failure.column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count + 1
        return failure
    }

    private mutating func readEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated string") }
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
            let first = try readHex4()
            var scalar = first
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(.invalidEscape, "lone surrogate \\u\(Self.hex(first)) in string") }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.invalidEscape, "lone surrogate \\u\(Self.hex(first)) in string")
                }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw error(.invalidEscape, "lone surrogate \\u\(Self.hex(first)) in string")
            }
            buffer.append(contentsOf: String(Character(unicode)).utf8)
        default:
            index -= 1
            throw error(.invalidEscape, "invalid escape \\\(describe(byte))")
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error(.invalidEscape, "expected four hex digits after \\u") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error(.invalidEscape, "expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// Builds ``JSONValue``s: objects as dictionaries (a second key is refused), numbers as doubles
/// (one that does not fit is refused).
struct JSONValueBuilder: JSONTreeBuilder {
    func makeObject() -> [String: JSONValue] { [:] }

    func add(_ key: String, _ value: JSONValue, line: Int, to object: inout [String: JSONValue]) -> Bool {
        object.updateValue(value, forKey: key) == nil
    }

    func finish(_ object: [String: JSONValue]) -> JSONValue { .object(object) }
    func array(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    func string(_ text: String) -> JSONValue { .string(text) }
    func bool(_ value: Bool) -> JSONValue { .bool(value) }
    func null() -> JSONValue { .null }

    func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> JSONValue? {
        if isInteger && text.count <= 15 {
            var value: Int64 = 0
            var position = 0
            let negative = text[0] == UInt8(ascii: "-")
            if negative { position = 1 }
            while position < text.count {
                value = value * 10 + Int64(text[position] &- 48)
                position += 1
            }
            return .number(Double(negative ? -value : value))
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return .number(value)
    }
}
