import Foundation
import PWAKitRetry
import Testing

@testable import PWAKitCore

@Suite("Configuration JSON parser")
struct ConfigurationJSONParserTests {
    private func parse(_ text: String) throws(ConfigurationJSONParser.SyntaxError) -> ConfigurationJSON {
        try ConfigurationJSONParser.parse(Array(text.utf8))
    }

    @Test func parsesEveryValueKind() throws {
        let value = try parse(
            #" {"a": [1, -2.5e3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}} "#)
        let expected: ConfigurationJSON = .object([
            .init(
                key: "a",
                value: .array([
                    .number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null,
                    .string("x\"\\/\u{08}\u{0C}\n\r\té😀"),
                ]), line: 1),
            .init(key: "b", value: .object([]), line: 1),
        ])
        #expect(value == expected)
    }

    @Test func keepsDuplicateKeysAndTheirLines() throws {
        let value = try parse("{\"a\": 1,\n\"a\": 2}")
        #expect(value.members?.map(\.key) == ["a", "a"])
        #expect(value.members?.map(\.line) == [1, 2])
        #expect(value["a"] == .number("1"))
    }

    @Test func integerValueIsStrict() throws {
        #expect(try parse("1").integerValue == 1)
        #expect(try parse("-0").integerValue == 0)
        #expect(try parse("1.0").integerValue == nil)
        #expect(try parse("1e0").integerValue == nil)
        #expect(try parse("99999999999999999999999").integerValue == nil)
        #expect(try parse("true").integerValue == nil)
    }

    @Test func toleratesAByteOrderMark() throws {
        let value = try ConfigurationJSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(value == .object([]))
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var text: String
        var error: String
        var testDescription: String { text.debugDescription }
    }

    static let malformed: [Malformed] = [
        .init(text: "", error: "line 1, column 1: the document is empty; expected a JSON value"),
        .init(text: "   \n ", error: "line 2, column 2: the document is empty; expected a JSON value"),
        .init(text: "{", error: "line 1, column 2: unexpected end of document; expected a key in double quotes"),
        .init(text: "{\"a\" 1}", error: "line 1, column 6: unexpected '1'; expected ':' after key \"a\""),
        .init(text: "{\"a\": 1,}", error: "line 1, column 9: unexpected '}'; expected a key in double quotes"),
        .init(text: "[1,]", error: "line 1, column 4: unexpected ']'; expected a JSON value"),
        .init(text: "[1 2]", error: "line 1, column 4: unexpected '2'; expected ',' or ']'"),
        .init(text: "{\"a\": 1 \"b\": 2}", error: "line 1, column 9: unexpected '\"'; expected ',' or '}'"),
        .init(text: "{'a': 1}", error: "line 1, column 2: unexpected '''; expected a key in double quotes"),
        .init(text: "{a: 1}", error: "line 1, column 2: unexpected 'a'; expected a key in double quotes"),
        .init(text: "// comment\n{}", error: "line 1, column 1: unexpected '/'; expected a JSON value"),
        .init(text: "{} {}", error: "line 1, column 4: unexpected '{' after the end of the document"),
        .init(text: "tru", error: "line 1, column 1: unexpected 't'; expected a JSON value"),
        .init(text: "NaN", error: "line 1, column 1: unexpected 'N'; expected a JSON value"),
        .init(text: "Infinity", error: "line 1, column 1: unexpected 'I'; expected a JSON value"),
        .init(text: "01", error: "line 1, column 2: numbers must not have leading zeros"),
        .init(text: "1.", error: "line 1, column 3: expected a digit after the decimal point"),
        .init(text: ".5", error: "line 1, column 1: unexpected '.'; expected a JSON value"),
        .init(text: "-", error: "line 1, column 2: expected a digit"),
        .init(text: "1e", error: "line 1, column 3: expected a digit in the exponent"),
        .init(text: "+1", error: "line 1, column 1: unexpected '+'; expected a JSON value"),
        .init(text: "\"abc", error: "line 1, column 5: unterminated string"),
        .init(text: "\"a\nb\"", error: "line 1, column 3: control character U+000A must be escaped inside a string"),
        .init(text: "\"\\x\"", error: "line 1, column 3: invalid escape \\'x'"),
        .init(text: "\"\\u12\"", error: "line 1, column 6: expected four hex digits after \\u"),
        .init(text: "\"\\ud800\"", error: "line 1, column 8: lone surrogate \\uD800 in string"),
        .init(text: "\"\\ud800\\u0041\"", error: "line 1, column 14: lone surrogate \\uD800 in string"),
        .init(text: "\"\\udc00\"", error: "line 1, column 8: lone surrogate \\uDC00 in string"),
        .init(text: "{\n  \"é\": x}", error: "line 2, column 8: unexpected 'x'; expected a JSON value"),
    ]

    @Test("reports malformed documents with line and column", arguments: malformed)
    func malformedDocument(_ row: Malformed) {
        #expect {
            try parse(row.text)
        } throws: { error in
            (error as? ConfigurationJSONParser.SyntaxError)?.description == row.error
        }
    }

    @Test func rejectsInvalidUTF8WithItsPosition() {
        let bytes: [UInt8] = Array("{\n  \"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect {
            try ConfigurationJSONParser.parse(bytes)
        } throws: { error in
            (error as? ConfigurationJSONParser.SyntaxError)?.description == "line 2, column 9: invalid UTF-8 byte 0xC3"
        }
    }

    @Test func nestingLimit() throws {
        let depth = ConfigurationJSONParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect {
            try parse(tooDeep)
        } throws: { error in
            (error as? ConfigurationJSONParser.SyntaxError)?.message == "nesting deeper than 64 levels"
        }
        let hostile = String(repeating: "{\"a\":", count: 200_000)
        #expect(throws: ConfigurationJSONParser.SyntaxError.self) { try parse(hostile) }
    }

    @Test func prettyPrintedTextParsesBackToTheSameValue() throws {
        let value: ConfigurationJSON = .object([
            .init(key: "quote\"and\\slash", value: .string("line\nbreak\u{01}tab\t/é"), line: 0),
            .init(key: "list", value: .array([.number("1"), .bool(false), .null]), line: 0),
            .init(key: "empty", value: .array([]), line: 0),
            .init(key: "nested", value: .array([.object([]), .array([.string("x")])]), line: 0),
        ])
        let text = value.prettyPrinted()
        let reparsed = try parse(text)
        #expect(Self.stripLines(reparsed) == value)
        #expect(text.contains(#""list": [1, false, null]"#))
        #expect(text.contains(#""empty": []"#))
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SeededRandom(seed: 0x5EED)
        let alphabet = Array(#"{}[],:"\ -0123456789.eEtrufalsn"#.utf8) + [0x0A, 0xFF, 0xC3, 0x80]
        var failures = 0
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 64)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            do {
                _ = try ConfigurationJSONParser.parse(bytes)
            } catch {
                failures += 1
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(failures > 0)
    }

    static func stripLines(_ value: ConfigurationJSON) -> ConfigurationJSON {
        switch value {
        case .object(let members):
            .object(members.map { .init(key: $0.key, value: stripLines($0.value), line: 0) })
        case .array(let elements):
            .array(elements.map(stripLines))
        default:
            value
        }
    }
}
