import Foundation
import Testing

@testable import PWAKitCore

@Suite struct JSONValueTests {
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double?
        var flags: [Bool]
    }

    @Test func literalsAndAccessors() {
        let value: JSONValue = ["a": 1, "b": [true, "x", nil], "c": 2.5]
        #expect(value["a"]?.intValue == 1)
        #expect(value["c"]?.doubleValue == 2.5)
        #expect(value["c"]?.intValue == nil)
        #expect(value["b"]?[0]?.boolValue == true)
        #expect(value["b"]?[1]?.stringValue == "x")
        #expect(value["b"]?[2]?.isNull == true)
        #expect(value["b"]?[9] == nil)
        #expect(value["missing"] == nil)
        #expect(value.objectValue?.count == 3)
        #expect(JSONValue.string("s").typeName == "string")
        #expect(JSONValue.number(1e300).intValue == nil)
    }

    @Test func convertsToAndFromCodable() throws {
        let sample = Sample(name: "n", count: 3, ratio: nil, flags: [true, false])
        let value = try JSONValue(encoding: sample)
        #expect(value == ["name": "n", "count": 3, "flags": [true, false]])
        #expect(try value.decode(Sample.self) == sample)
        #expect(throws: DecodingError.self) { try (["name": 1] as JSONValue).decode(Sample.self) }
    }

    @Test func isCodableItself() throws {
        let value: JSONValue = ["x": [1, "two", nil, ["y": false]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func isHashable() {
        let set: Set<JSONValue> = [1, 1, "1", [1], ["a": 1], ["a": 1]]
        #expect(set.count == 4)
    }
}
