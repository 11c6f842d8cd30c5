import Foundation
import PWAKitCore
import PWAKitModules
import Testing

/// `liveActivity` content: the keys of `fields` are bounded and printable, and a bad key is
/// quoted (cut short) in the message, never copied into the error's path.
@Suite struct LiveActivityModuleTests {
    func harness() async throws -> ModuleHarness {
        try await ModuleHarness(features: FeatureFlags(liveActivity: true))
    }

    func content(fields: [String: JSONValue]) -> JSONValue {
        ["title": "Order #42", "fields": .object(fields)]
    }

    @Test func anOversizedFieldKeyIsRefusedWithAShortPathAndMessage() async throws {
        let harness = try await harness()
        let overLimit = String(repeating: "k", count: ActivityContent.maxFieldKeyBytes + 1)
        for key in [overLimit, String(repeating: "k", count: 900_000)] {
            for action in ["start", "update"] {
                let response = try await harness.call("liveActivity", action, content(fields: [key: "v"]))
                #expect(response["code"] == "invalid_payload", "\(action): \(JSONSerializer.serialize(response).prefix(300))")
                #expect(response["details"]?["path"] == "payload.fields")
                let message = try #require(response["error"]?.stringValue)
                #expect(message.utf8.count < 200, "\(message.prefix(300))")
                #expect(message.contains("1…\(ActivityContent.maxFieldKeyBytes) bytes"), "\(message)")
            }
        }
        // Multi-byte: 33 two-byte characters are 66 bytes, over the limit though only 33 characters.
        let wide = try await harness.call("liveActivity", "start", content(fields: [String(repeating: "é", count: 33): "v"]))
        #expect(wide["details"]?["path"] == "payload.fields", "\(JSONSerializer.serialize(wide))")
        let empty = try await harness.call("liveActivity", "start", content(fields: ["": "v"]))
        #expect(empty["details"]?["path"] == "payload.fields", "\(JSONSerializer.serialize(empty))")
    }

    @Test func aFieldKeyWithControlCharactersIsRefusedAndShownEscaped() async throws {
        let harness = try await harness()
        for key in ["eta\n", "a\u{0}b", "\u{1B}[31mred", "del\u{7F}"] {
            let response = try await harness.call("liveActivity", "start", content(fields: [key: "v"]))
            #expect(response["code"] == "invalid_payload", "\(key.debugDescription): \(JSONSerializer.serialize(response))")
            #expect(response["details"]?["path"] == "payload.fields", "\(key.debugDescription)")
            let message = try #require(response["error"]?.stringValue)
            #expect(message.contains("control characters"), "\(message)")
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(message.debugDescription)")
        }
    }

    @Test func aValidKeyAtTheLimitIsAcceptedAndNamesItsValue() async throws {
        let harness = try await harness()
        let atLimit = String(repeating: "k", count: ActivityContent.maxFieldKeyBytes)
        let wideAtLimit = String(repeating: "é", count: ActivityContent.maxFieldKeyBytes / 2)
        for action in ["start", "update"] {
            let response = try await harness.call(
                "liveActivity", action, content(fields: [atLimit: "12 min", wideAtLimit: "2 stops", "Driver name": "Ana"]))
            #expect(response["success"] == true, "\(action): \(JSONSerializer.serialize(response))")
        }
        // A bad value under a good key is still named by its key.
        let emptyValue = try await harness.call("liveActivity", "start", content(fields: [atLimit: ""]))
        #expect(emptyValue["details"]?["path"]?.stringValue == "payload.fields.\(atLimit)")
    }
}
