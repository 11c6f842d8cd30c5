import Foundation
import PWAKitCore
import PWAKitModules
import Testing

@Suite("error texts say what was expected")
struct ErrorTextTests {
    @Test("an enumeration value that is not a case lists the cases")
    func enumerationCases() async throws {
        let harness = try await ModuleHarness()
        let response = try await harness.call("haptics", "impact", ["style": "wobbly"])
        #expect(response["code"] == "invalid_payload")
        #expect(response["details"]?["path"] == "payload.style")
        #expect(response["error"]?.stringValue == "payload.style: \"wobbly\" is not one of light, medium, heavy, soft, rigid")
    }

    @Test("text that is not JSON says a JSON value was expected; timeoutMs 0 says what is allowed")
    func messageTexts() async throws {
        do {
            _ = try JSONParser.parse("not json")
            Issue.record("parsed")
        } catch {
            #expect(error.message.contains("expected a JSON value"), "\(error.message)")
            #expect(!error.message.contains("'null'"))
        }
        let harness = try await ModuleHarness()
        let reply = await harness.dispatcher.handle(
            #"{"id":"t","module":"haptics","action":"impact","payload":{"style":"light"},"timeoutMs":0}"#, from: harness.page)
        let response = try JSONParser.parse(Data(try #require(reply).json.utf8))
        #expect(response["error"]?.stringValue == "timeoutMs: must be above 0 and at most 86400000 (one day), got 0")
    }
}
