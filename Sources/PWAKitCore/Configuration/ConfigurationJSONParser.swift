/// A strict JSON parser (RFC 8259) for configuration and manifest files.
///
/// It reports the line and column of the first syntax error, refuses nesting deeper than
/// `maximumDepth` instead of exhausting the stack, rejects invalid UTF-8 and lone
/// surrogates, and keeps duplicate keys so the validator can report them.
struct ConfigurationJSONParser {
    /// Where and why a document failed to parse.
    struct SyntaxError: Error, Equatable {
        var message: String
        var line: Int
        var column: Int

        /// "line 3, column 14: expected ',' or '}'".
        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document; whitespace may surround it, nothing else may follow.
    static func parse(_ bytes: some Sequence<UInt8>) throws(SyntaxError) -> ConfigurationJSON {
        var parser = ConfigurationJSONParser(bytes: Array(bytes))
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3  // NB: tolerate a UTF-8 byte order mark, as editors write one.
            parser.lineStart = 3
        }
        guard String(validating: parser.bytes, as: UTF8.self) != nil else {
            throw parser.invalidUTF8Error()
        }
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else {
            throw parser.error("the document is empty; expected a JSON value")
        }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> ConfigurationJSON {
        guard index < bytes.count else { throw error("unexpected end of document; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> ConfigurationJSON {
        try checkDepth(depth)
        index += 1
        var members: [ConfigurationJSON.Member] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyLine = line
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeCurrent()); expected ':' after key \"\(key)\"")
            }
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(.init(key: key, value: value, line: keyLine))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(members) }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> ConfigurationJSON {
        try checkDepth(depth)
        index += 1
        var elements: [ConfigurationJSON] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    private func checkDepth(_ depth: Int) throws(SyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard bytes[index...].starts(with: expected) else {
            throw error("unexpected \(describeCurrent()); expected a value")
        }
        index += expected.count
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("numbers must not have leading zeros")
            }
        } else {
            guard consumeDigits() else { throw error("expected a digit") }
        }
        if consume(UInt8(ascii: ".")) {
            guard consumeDigits() else { throw error("expected a digit after the decimal point") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard consumeDigits() else { throw error("expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func consumeDigits() -> Bool {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw error("control character U+\(hex(UInt32(byte))) must be escaped inside a string")
            }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
                continue
            }
            index += 1
        }
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                    throw error("lone surrogate \\u\(hex(first)) in string")
                }
                index += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error("lone surrogate \\u\(hex(first)) in string")
                }
                let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                guard let scalar = Unicode.Scalar(combined) else { throw error("invalid escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw error("lone surrogate \\u\(hex(first)) in string")
            }
            return scalar
        default:
            index -= 1
            throw error("invalid escape \\\(describe(byte))")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Positions and errors

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func describeCurrent() -> String {
        index < bytes.count ? describe(bytes[index]) : "end of document"
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(UInt32(byte), width: 2))"
    }

    private func hex(_ value: UInt32, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private func error(_ message: String) -> SyntaxError {
        // NB: columns count Unicode scalars, so they match what an editor shows.
        let prefix = bytes[lineStart..<min(index, bytes.count)]
        let column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count + 1
        return SyntaxError(message: message, line: line, column: column)
    }

    private func invalidUTF8Error() -> SyntaxError {
        var position = 0
        var currentLine = 1
        var currentLineStart = 0
        while position < bytes.count {
            var decoder = UTF8()
            var iterator = bytes[position...].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
                let prefix = bytes[currentLineStart..<position]
                let column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count + 1
                return SyntaxError(
                    message: "invalid UTF-8 byte 0x\(hex(UInt32(bytes[position]), width: 2))", line: currentLine,
                    column: column)
            }
            position += UTF8.width(scalar)
            if scalar == "\n" {
                currentLine += 1
                currentLineStart = position
            }
        }
        return SyntaxError(message: "the document is not valid UTF-8", line: currentLine, column: 1)
    }
}
