import Foundation
import PWAKitCore
import Testing

@testable import PWAKitHost

/// The isolated-world relay, run in Node with a stand-in for the page (its `document`, the
/// native handler, `location`): what crosses to the host with batching off and on, and which
/// late answers a document takes.
@Suite struct BridgeRelayTests {
    /// Runs `relay`, posts `messages` in one task, then runs each of `afterwards` (scripts in the
    /// relay's world); returns what the handler received and the answers the page saw.
    func run(_ relay: String, messages: [String], afterwards: (String) -> [String]) throws -> (
        posted: [JSONValue], answers: [String]
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The harness learns the document token from the first batch, then runs the scripts
        // `afterwards` builds for it (written with a placeholder the harness replaces).
        let placeholder = "@@DOCUMENT@@"
        let input: JSONValue = .object([
            "relay": .string(relay), "messages": .array(messages.map(JSONValue.string)),
            "afterwards": .array(afterwards(placeholder).map(JSONValue.string)), "placeholder": .string(placeholder),
        ])
        try Data(JSONSerializer.serialize(input).utf8).write(to: directory.appendingPathComponent("input.json"))
        try Data(Self.harness.utf8).write(to: directory.appendingPathComponent("harness.cjs"))
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", directory.appendingPathComponent("harness.cjs").path]
        node.currentDirectoryURL = directory
        let output = Pipe()
        node.standardOutput = output
        try node.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        node.waitUntilExit()
        try #require(node.terminationStatus == 0, "node is needed for the relay tests")
        let result = try JSONParser.parse(String(decoding: data, as: UTF8.self))
        guard case .object(let object) = result, case .array(let posted)? = object["posted"],
            case .array(let answers)? = object["answers"]
        else { throw RelayHarnessError(output: String(decoding: data, as: UTF8.self)) }
        return (posted, answers.compactMap { if case .string(let text) = $0 { text } else { nil } })
    }

    struct RelayHarnessError: Error { var output: String }

    static let harness = #"""
        const vm = require('node:vm');
        const fs = require('node:fs');
        const input = JSON.parse(fs.readFileSync('input.json', 'utf8'));
        const posted = [];
        const answers = [];
        const document = new EventTarget();
        const context = {
          document, EventTarget, CustomEvent, JSON, Promise, String, Date, Math, Uint32Array,
          location: { protocol: 'app:', host: 'relay' },
          crypto: globalThis.crypto,
          queueMicrotask,
        };
        context.window = context;
        context.top = context;
        context.webkit = { messageHandlers: { pwakit: { postMessage(message) {
          posted.push(message);
          // The host's reply: a lone message gets its answer, a batch the answers ready at once.
          return Promise.resolve(typeof message === 'string' ? 'reply:' + message : JSON.stringify(['batch']));
        } } } };
        vm.createContext(context);
        document.addEventListener('pwakit:answer', (event) => answers.push(event.detail));
        vm.runInContext(input.relay, context);
        for (const text of input.messages) {
          document.dispatchEvent(new CustomEvent('pwakit:message', { detail: text }));
        }
        setTimeout(() => {
          const batch = posted.find((message) => typeof message === 'object');
          const token = batch ? batch.document : 'none';
          for (const script of input.afterwards) {
            vm.runInContext(script.split(input.placeholder).join(token), context);
          }
          setTimeout(() => {
            process.stdout.write(JSON.stringify({ posted: JSON.parse(JSON.stringify(posted)), answers }));
          }, 10);
        }, 10);
        """#

    func scripts(batching: Bool) -> BridgeScripts {
        BridgeScripts(origin: "app://relay", limits: BridgeLimits(maxMessageBytes: 4096), batching: batching)
    }

    @Test func withoutBatchingEveryMessageCrossesAloneAsTheSeedExpects() throws {
        let (posted, answers) = try run(scripts(batching: false).relay, messages: ["a", "b", "c"]) { _ in [] }
        #expect(posted == [.string("a"), .string("b"), .string("c")])
        #expect(answers == ["reply:a", "reply:b", "reply:c"])
    }

    @Test func withBatchingOneTaskCrossesOnceWithTheDocumentToken() throws {
        let (posted, answers) = try run(scripts(batching: true).relay, messages: ["a", "b", "c"]) { _ in [] }
        try #require(posted.count == 1)
        guard case .object(let batch) = posted[0], case .string(let token)? = batch["document"] else {
            Issue.record("expected a batch object, got \(posted)")
            return
        }
        #expect(batch["messages"] == .array([.string("a"), .string("b"), .string("c")]))
        #expect(!token.isEmpty && token.utf8.count <= BridgeScripts.maxDocumentToken)
        #expect(answers == [#"["batch"]"#])
    }

    @Test func aLoneMessageStillCrossesAsItsText() throws {
        let (posted, _) = try run(scripts(batching: true).relay, messages: ["only"]) { _ in [] }
        #expect(posted == [.string("only")])
    }

    @Test func lateAnswersReachOnlyTheDocumentTheyWereFor() throws {
        let (_, answers) = try run(scripts(batching: true).relay, messages: ["a", "b"]) { token in
            [
                BridgeScripts.lateAnswerScript("for this document", document: token),
                BridgeScripts.lateAnswerScript("for the previous document", document: "0123abcd."),
                BridgeScripts.lateAnswerScript("\"); globalThis.broken = true; (\"", document: token),
            ]
        }
        #expect(answers == [#"["batch"]"#, "for this document", "\"); globalThis.broken = true; (\""])
    }

    @Test func oversizedMessagesAreAnsweredInThePageAndNeverCross() throws {
        let big = #"{"id":"x1","module":"m","action":"a","payload":""# + String(repeating: "é", count: 3000) + #""}"#
        for batching in [false, true] {
            let (posted, answers) = try run(scripts(batching: batching).relay, messages: [big, "small"]) { _ in [] }
            #expect(posted == [.string("small")])
            let refusal = try #require(answers.first)
            #expect(refusal.contains("payload_too_large") && refusal.contains("x1"))
        }
    }
}
