import Foundation
import Testing

@testable import PWAKitCore

@Suite struct JSONValueDecoderTests {
    struct Inner: Codable, Equatable { var n: Int }
    struct Sample: Codable, Equatable {
        var name: String
        var count: UInt8
        var ratio: Double
        var flag: Bool?
        var items: [Inner]
        var bytes: Data
        var link: URL
        var extra: [String: Int]
    }

    static let good: JSONValue = [
        "name": "a", "count": 7, "ratio": 0.5, "items": [["n": 1], ["n": 2]], "bytes": "aGk=",
        "link": "https://example.com/x", "extra": ["k": 3], "ignored": true,
    ]

    func path(_ value: JSONValue) -> String {
        do {
            _ = try value.decode(Sample.self)
            return "decoded"
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                return (context.codingPath + [key]).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            @unknown default: return "?"
            }
        } catch {
            return "\(error)"
        }
    }

    @Test func decodesStraightFromTheValueWithJSONDecoderDefaults() throws {
        let sample = try Self.good.decode(Sample.self)
        #expect(
            sample
                == Sample(
                    name: "a", count: 7, ratio: 0.5, flag: nil, items: [Inner(n: 1), Inner(n: 2)], bytes: Data("hi".utf8),
                    link: URL(string: "https://example.com/x")!, extra: ["k": 3]))
        // The same answer as going through text and JSONDecoder.
        let viaText = try JSONDecoder().decode(Sample.self, from: Data(JSONSerializer.serialize(Self.good).utf8))
        #expect(sample == viaText)
    }

    @Test func everyErrorNamesTheValueAtFault() {
        func with(_ key: String, _ value: JSONValue?) -> JSONValue {
            var members = Self.good.objectValue!
            members[key] = value
            return .object(members)
        }
        #expect(path(with("name", nil)) == "name")
        #expect(path(with("name", 5)) == "name")
        #expect(path(with("name", .null)) == "name")
        #expect(path(with("count", 256)) == "count")
        #expect(path(with("count", 1.5)) == "count")
        #expect(path(with("count", 1e300)) == "count")
        #expect(path(with("items", [["n": 1], ["n": "x"]])) == "items.1.n")
        #expect(path(with("items", [["n": 1], [:]])) == "items.1.n")
        #expect(path(with("bytes", "@@")) == "bytes")
        #expect(path(with("extra", ["k": true])) == "extra.k")
        #expect(path(with("flag", "yes")) == "flag")
        #expect(path(.array([])) == "")
    }
}
