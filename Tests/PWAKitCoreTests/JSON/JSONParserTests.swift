import Foundation
import PWAKitRetry
import Testing

@testable import PWAKitCore

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}} "#)
        #expect(value == ["a": [1, -2.5, 300, true, false, nil], "b": ["c": "d\né😀"]])
    }

    @Test(arguments: [
        ("", "unexpected_end"),
        ("{", "unexpected_end"),
        ("{\"a\":1,}", "unexpected_character"),
        ("[1,]", "unexpected_character"),
        ("[1 2]", "unexpected_character"),
        ("{\"a\" 1}", "unexpected_character"),
        ("{a:1}", "unexpected_character"),
        ("tru", "unexpected_end"),
        ("nul", "unexpected_end"),
        ("trux", "unexpected_character"),
        ("01", "invalid_number"),
        ("-", "invalid_number"),
        ("1.", "invalid_number"),
        ("1e", "invalid_number"),
        ("1e400", "number_out_of_range"),
        ("-1e400", "number_out_of_range"),
        ("\"abc", "unexpected_end"),
        ("\"a\\x\"", "invalid_escape"),
        ("\"\\ud800\"", "invalid_escape"),
        ("\"\\udc00\"", "invalid_escape"),
        ("\"\\ud800\\u0041\"", "invalid_escape"),
        ("\"\\u12G4\"", "invalid_escape"),
        ("\"a\tb\"", "control_character"),
        ("{\"a\":1,\"a\":2}", "duplicate_key"),
        ("{} x", "trailing_characters"),
        ("NaN", "unexpected_character"),
        ("'a'", "unexpected_character"),
    ])
    func rejectsMalformedText(_ text: String, _ code: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.code.rawValue == code, "\(text): \(error)")
        }
    }

    @Test func reportsThePathOfTheValueAtFault() {
        do {
            _ = try JSONParser.parse(#"{"payload":{"items":[1,{"x":1e999}]}}"#)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .numberOutOfRange)
            #expect(error.path == "payload.items[1].x")
            #expect(error.description.hasPrefix("payload.items[1].x: number 1e999 is out of range"))
        }
    }

    @Test func duplicateKeysNameTheKey() {
        do {
            _ = try JSONParser.parse(#"{"a":{"b":1,"b":2}}"#)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.path == "a.b")
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xFF, 0xFE, 0x22]
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Data(bytes)) }
        let escaped: [UInt8] = Array("\"\\n".utf8) + [0xC3] + [0x22]
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Data(escaped)) }
    }

    @Test func boundsNesting() throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect(try JSONParser(maxDepth: 20).parse(Data(ok.utf8)) != .null)
        #expect(throws: JSONParseError.self) { try JSONParser(maxDepth: 19).parse(Data(ok.utf8)) }
        // Hostile depth far past any limit never overflows the stack.
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(hostile) }
    }

    @Test func largeIntegersAndFractionsKeepTheirValue() throws {
        #expect(try JSONParser.parse("9007199254740993") == .number(Double("9007199254740993")!))
        #expect(try JSONParser.parse("123456789012345") == .number(123456789012345))
        #expect(try JSONParser.parse("-0.000001") == .number(-0.000001))
        #expect(try JSONParser.parse("5e-324") == .number(Double.leastNonzeroMagnitude))
    }

    @Test func serializerRoundTripsRandomValues() throws {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let value = randomValue(depth: 0, using: &generator)
            let text = JSONSerializer.serialize(value)
            #expect(try JSONParser.parse(text) == value, "\(text)")
            // Foundation agrees on the text.
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            _ = foundation
        }
    }

    @Test func serializerEscapes() {
        #expect(JSONSerializer.serialize("a\"b\\c\n\u{1}\u{2028}") == #""a\"b\\c\n\u0001\u2028""#)
        #expect(JSONSerializer.serialize(["b": 1, "a": [true, nil]]) == #"{"a":[true,null],"b":1}"#)
        #expect(JSONSerializer.serialize(.number(.nan)) == "null")
        #expect(JSONSerializer.serialize(.number(1.5)) == "1.5")
        #expect(JSONSerializer.serialize(.number(-3)) == "-3")
        #expect(JSONSerializer.serialize(.number(1e300)) == "1e+300")
    }
}

func randomString(using generator: inout SeededRandom) -> String {
    let alphabet: [Character] = ["a", "b", "Z", "0", " ", "\"", "\\", "\n", "\t", "é", "😀", "\u{0}", "\u{2028}", "/", "{", "]"]
    return String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
}

func randomValue(depth: Int, using generator: inout SeededRandom) -> JSONValue {
    switch Int.random(in: 0...(depth > 3 ? 3 : 5), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2:
        return Bool.random(using: &generator)
            ? .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
            : .number(Double.random(in: -1e6...1e6, using: &generator))
    case 3: return .string(randomString(using: &generator))
    case 4:
        return .array(
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
    default:
        var object: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            object[randomString(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
        }
        return .object(object)
    }
}
