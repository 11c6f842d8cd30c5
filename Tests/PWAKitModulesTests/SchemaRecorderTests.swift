import PWAKitCore
import PWAKitModules
import Testing

@Suite struct SchemaRecorderTests {
    enum Mood: String, Codable, SchemaEnum { case calm, busy }

    struct Inner: Codable, Equatable { var label: String }

    struct Sample: Codable, SchemaFieldNotes {
        var name: String
        var count: Int
        var ratio: Double
        var flag: Bool?
        var mood: Mood
        var tags: [String]
        var inners: [Inner]?
        var extra: [String: Int]
        var anything: JSONValue?
        var when: ISODate
        static let fieldNotes = ["count": "1…3"]
    }

    struct CustomSingleValue: Decodable {
        init(from decoder: any Decoder) throws { _ = try decoder.singleValueContainer() }
    }

    struct BadNotes: Codable, SchemaFieldNotes {
        var a: Int
        static let fieldNotes = ["b": "no such field"]
    }

    @Test func readsFieldsOptionalityAndNestedShapesOffCodable() throws {
        guard case .object(let object) = try SchemaRecorder.describe(Sample.self).node else {
            Issue.record("not an object")
            return
        }
        #expect(object.name == "Sample")
        #expect(
            object.fields.map(\.name) == [
                "name", "count", "ratio", "flag", "mood", "tags", "inners", "extra", "anything", "when",
            ])
        #expect(object.fields.filter { !$0.required }.map(\.name) == ["flag", "inners", "anything"])
        #expect(object.field("count")?.node == .integer)
        #expect(object.field("count")?.note == "1…3")
        #expect(object.field("ratio")?.node == .number)
        #expect(object.field("mood")?.node == .enumeration(name: "Mood", cases: ["calm", "busy"]))
        #expect(object.field("tags")?.node == .array(.string))
        #expect(
            object.field("inners")?.node
                == .array(
                    .object(SchemaObject(name: "Inner", fields: [SchemaField(name: "label", node: .string, required: true)]))))
        #expect(object.field("extra")?.node == .map(.integer))
        #expect(object.field("anything")?.node == .any)
        #expect(object.field("when")?.node == .string(format: "date-time"))
    }

    @Test func aTypeTheRecorderCannotReadIsAnErrorNotAGuess() {
        #expect(throws: SchemaError.self) { try SchemaRecorder.describe(CustomSingleValue.self) }
        #expect(throws: SchemaError.self) { try SchemaRecorder.describe(BadNotes.self) }
    }

    @Test func theValidatorNamesEveryMismatch() throws {
        let node = try SchemaRecorder.describe(Sample.self).node
        let good: JSONValue = [
            "name": "a", "count": 1, "ratio": 0.5, "mood": "calm", "tags": ["x"], "extra": ["k": 2],
            "when": "2026-01-01T00:00:00Z",
        ]
        #expect(SchemaValidator.issues(good, against: node).isEmpty)
        var bad = good.objectValue!
        bad["count"] = 1.5
        bad["mood"] = "angry"
        bad["tags"] = ["x", 3]
        bad["name"] = nil
        let issues = SchemaValidator.issues(.object(bad), against: node, path: "data").map(\.path)
        #expect(Set(issues) == ["data.count", "data.mood", "data.tags[1]", "data.name"])
    }

    @Test func theNotificationTriggerIsATaggedUnion() throws {
        guard case .union(let union) = try NotificationTrigger.schemaNode() else {
            Issue.record("not a union")
            return
        }
        #expect(union.discriminator == "type")
        #expect(union.variants.map(\.tag) == ["timeInterval", "date", "calendar"])
        let node = SchemaNode.union(union)
        #expect(SchemaValidator.issues(["type": "date", "date": "2030-01-01T00:00:00Z"], against: node).isEmpty)
        #expect(SchemaValidator.issues(["type": "weekly"], against: node).map(\.path) == ["value.type"])
    }
}
