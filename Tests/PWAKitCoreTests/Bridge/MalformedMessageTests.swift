import Foundation
import PWAKitRetry
import Testing

@testable import PWAKitCore

/// A corpus of hostile and malformed messages: each gets exactly one answer, a response
/// carrying its readable id, or a `bridge.error` event when it has none.
@Suite struct MalformedMessageTests {
    enum Expect: Sendable, CustomStringConvertible {
        case response(id: String, code: String?)
        case event(code: String)

        var description: String {
            switch self {
            case .response(let id, let code): "response(\(id), \(code ?? "ok"))"
            case .event(let code): "event(\(code))"
            }
        }
    }

    static let huge = String(repeating: "a", count: 2_000_000)
    static let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)

    static let corpus: [(String, Expect)] = [
        ("", .event(code: "invalid_message")),
        ("   ", .event(code: "invalid_message")),
        ("null", .event(code: "invalid_message")),
        ("42", .event(code: "invalid_message")),
        ("[]", .event(code: "invalid_message")),
        (#"["id","x"]"#, .event(code: "invalid_message")),
        ("{}", .event(code: "invalid_message")),
        (#"{"id":7,"module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"id":null,"module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"id":{"id":"x"},"module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"payload":{"id":"nested"},"module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"id":"a","id":"b","module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"id":"a","id":"a","module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"id":"a","\u0069d":"b","module":"echo","action":"echo"}"#, .event(code: "invalid_message")),
        (#"{"\u0069d":"esc","module":"echo","action":"echo"}"#, .response(id: "esc", code: nil)),
        (#"{"id":"t1","module":"echo""#, .event(code: "invalid_message")),
        (#"{"id":"t2","#, .event(code: "invalid_message")),
        (#"{"id":"g1","module":"echo","action":"echo"} trailing"#, .response(id: "g1", code: "invalid_message")),
        (#"{"id":"m1"}"#, .response(id: "m1", code: "invalid_message")),
        (#"{"id":"m2","module":"echo"}"#, .response(id: "m2", code: "invalid_message")),
        (#"{"id":"m3","action":"echo"}"#, .response(id: "m3", code: "invalid_message")),
        (#"{"id":"w1","module":5,"action":"echo"}"#, .response(id: "w1", code: "invalid_message")),
        (#"{"id":"w2","module":"echo","action":["echo"]}"#, .response(id: "w2", code: "invalid_message")),
        (#"{"id":"w3","module":"","action":"echo"}"#, .response(id: "w3", code: "invalid_message")),
        (#"{"id":"w4","module":"echo","action":"echo","timeoutMs":"5"}"#, .response(id: "w4", code: "invalid_message")),
        (#"{"id":"w5","module":"echo","action":"echo","timeoutMs":-1}"#, .response(id: "w5", code: "invalid_message")),
        (#"{"id":"w6","module":"echo","action":"echo","timeoutMs":1e300}"#, .response(id: "w6", code: "invalid_message")),
        (#"{"id":"n1","module":"echo","action":"echo","payload":1e400}"#, .response(id: "n1", code: "invalid_message")),
        (#"{"id":"n2","module":"echo","action":"echo","payload":[1,2,-1e999]}"#, .response(id: "n2", code: "invalid_message")),
        (#"{"payload":1e400,"id":"n3","module":"echo","action":"echo"}"#, .response(id: "n3", code: "invalid_message")),
        (#"{"id":"d1","module":"echo","action":"echo","payload":{"a":1,"a":2}}"#, .response(id: "d1", code: "invalid_message")),
        (#"{"id":"d2","module":"echo","module":"echo","action":"echo"}"#, .response(id: "d2", code: "invalid_message")),
        (#"{"id":"u1","module":"echo","action":"echo","payload":"\ud800"}"#, .response(id: "u1", code: "invalid_message")),
        (#"{"id":"deep","module":"echo","action":"echo","payload":\#(deep)}"#, .response(id: "deep", code: "invalid_message")),
        (#"{"id":"big","module":"echo","action":"echo","payload":"\#(huge)"}"#, .response(id: "big", code: "payload_too_large")),
        (#"{"module":"echo","action":"echo","payload":"\#(huge)"}"#, .event(code: "payload_too_large")),
        (
            #"{"id":"\#(String(repeating: "i", count: 300))","module":"echo","action":"echo"}"#,
            .response(id: String(repeating: "i", count: 300), code: "invalid_message")
        ),
        (
            #"{"id":"q1","module":"\#(String(repeating: "m", count: 200))","action":"echo"}"#,
            .response(id: "q1", code: "invalid_message")
        ),
        (#"{"id":"k1","module":"nope","action":"echo"}"#, .response(id: "k1", code: "unknown_module")),
        (#"{"id":"k2","module":"echo","action":"nope"}"#, .response(id: "k2", code: "unknown_action")),
        (#"{"id":"","module":"echo","action":"echo"}"#, .response(id: "", code: nil)),
        (#"{"id":"ok","module":"echo","action":"echo","payload":null,"extra":{"ignored":true}}"#, .response(id: "ok", code: nil)),
        (#"  {"id" : "sp" , "module" : "echo" , "action" : "echo" }  "#, .response(id: "sp", code: nil)),
        (#"{"id":"s\"q","module":"echo","action":"echo"}"#, .response(id: "s\"q", code: nil)),
        (#"{"id":"</script>\u2028","module":"echo","action":"echo"}"#, .response(id: "</script>\u{2028}", code: nil)),
        (#""{\"id\":\"str\",\"module\":\"echo\",\"action\":\"echo\"}""#, .response(id: "str", code: nil)),
        (#""{\"id\":\"str2\",\"module\":7}""#, .response(id: "str2", code: "invalid_message")),
        (#""not an object""#, .event(code: "invalid_message")),
        (#"{"id":"c1","cancel":"yes"}"#, .response(id: "c1", code: "invalid_message")),
    ]

    @Test(arguments: corpus)
    func everyMessageGetsExactlyOneAnswer(_ message: String, _ expect: Expect) async throws {
        let page = await TestPage.open(try makeDispatcher())
        let output = await page.dispatcher.handle(message, from: page.id)
        switch (expect, output) {
        case (.response(let id, let code), .response(let response)?):
            #expect(response.id == id)
            #expect(response.error?.code.rawValue == code, "\(response.json.prefix(300))")
        case (.event(let code), .event(let event)?):
            #expect(event.type == "bridge.error")
            #expect(event.data?["code"]?.stringValue == code, "\(event.json.prefix(300))")
        default:
            Issue.record("expected \(expect), got \(output.map { String($0.json.prefix(300)) } ?? "nothing")")
        }
        #expect(page.outputs.isEmpty)
    }

    /// The id limit counts UTF-8 bytes, as the module and action limits do: "a" and 500,000
    /// combining accents is one character but ~1 MB (under the message limit), and is refused.
    @Test func anIDOfOneCharacterButManyBytesIsRefused() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let combining = "a" + String(repeating: "\u{301}", count: 500_000)
        #expect(combining.count == 1)
        // NB: raw UTF-8, not \u escapes, so the message stays under the 1 MiB limit.
        let refused = await page.dispatcher.handle(
            #"{"id":"\#(combining)","module":"echo","action":"echo"}"#, from: page.id)
        guard case .response(let response)? = refused else {
            Issue.record("expected a response, got \(refused.map { String($0.json.prefix(300)) } ?? "nothing")")
            return
        }
        #expect(response.error?.code == .invalidMessage, "\(response.json.prefix(300))")
        #expect(response.error?.details?["path"]?.stringValue == "id")
        // 256 bytes of two-byte characters is at the limit; one more is over it.
        let atLimit = String(repeating: "é", count: BridgeMessage.maxIDLength / 2)
        let accepted = await page.dispatcher.handle(#"{"id":"\#(atLimit)","module":"echo","action":"echo"}"#, from: page.id)
        guard case .response(let ok)? = accepted else {
            Issue.record("expected a response")
            return
        }
        #expect(ok.id == atLimit && ok.error == nil, "\(ok.json)")
        let over = await page.dispatcher.handle(#"{"id":"\#(atLimit)é","module":"echo","action":"echo"}"#, from: page.id)
        guard case .response(let tooLong)? = over else {
            Issue.record("expected a response")
            return
        }
        #expect(tooLong.error?.code == .invalidMessage)
        #expect(tooLong.error?.details?["path"]?.stringValue == "id")
        #expect(page.outputs.isEmpty)
    }

    @Test func invalidUTF8NeverCrashesAndKeepsTheId() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let withID = Array(#"{"id":"utf","module":"echo","action":"echo","payload":""#.utf8) + [0xFF, 0xC0] + Array(#""}"#.utf8)
        let answer = await page.dispatcher.handle(bytes: withID, from: page.id)
        guard case .response(let response)? = answer else {
            Issue.record("expected a response")
            return
        }
        #expect(response.id == "utf")
        #expect(response.error?.code == .invalidMessage)
        let badID = Array(#"{"id":""#.utf8) + [0xFF] + Array(#"","module":"echo","action":"echo"}"#.utf8)
        guard case .event(let event)? = await page.dispatcher.handle(bytes: badID, from: page.id) else {
            Issue.record("expected a bridge.error event")
            return
        }
        #expect(event.type == "bridge.error")
    }

    @Test func errorsNameTheOffsetAndPathOfMalformedJSON() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let reply = await page.send(#"{"id":"p","module":"echo","action":"echo","payload":{"list":[1,2,03]}}"#)
        #expect(
            reply
                == #"{"id":"p","success":false,"error":"malformed JSON: payload.list[2]: numbers must not have leading zeros (at byte 66)","code":"invalid_message","details":{"offset":66,"path":"payload.list[2]","reason":"invalid_number"}}"#
        )
    }

    /// Random mutations of valid messages: nothing crashes or hangs, every answer is a
    /// response or an event, and a message whose strict parse yields a single top-level
    /// string id is answered with that id.
    @Test func fuzzedMessagesKeepTheOneAnswerRule() async throws {
        let page = await TestPage.open(try makeDispatcher(modules: [EchoModule(), GreeterModule()]))
        var generator = SeededRandom(seed: 0x5EED)
        let seeds = [
            #"{"id":"abc","module":"echo","action":"echo","payload":{"x":[1,2.5,"s",null,true]}}"#,
            #"{"id":"g","module":"greeter","action":"hello","payload":{"name":"A","times":2,"tags":["t"]}}"#,
            #"{"id":"c","cancel":true}"#,
        ]
        let tokens = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "id", "\"id\"", "1e999", "-", "0", "null", "\u{0}", "é", "\"\\ud800\"",
        ]
        var responses = 0
        var events = 0
        for round in 0..<3000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0...bytes.count, using: &generator)
                switch Int.random(in: 0...3, using: &generator) {
                case 0 where !bytes.isEmpty:
                    bytes.remove(at: min(position, bytes.count - 1))
                case 1:
                    bytes.insert(contentsOf: tokens.randomElement(using: &generator)!.utf8, at: position)
                case 2 where !bytes.isEmpty:
                    bytes[min(position, bytes.count - 1)] = UInt8.random(in: 0...255, using: &generator)
                default:
                    bytes = Array(bytes.prefix(position))
                }
            }
            let strictID: String? = {
                guard let value = try? JSONParser.parse(Data(bytes)), case .object(let members) = value else { return nil }
                return members["id"]?.stringValue
            }()
            let output = await page.dispatcher.handle(bytes: bytes, from: page.id)
            switch output {
            case .response(let response)?:
                responses += 1
                if let strictID { #expect(response.id == strictID) }
            case .event(let event)?:
                events += 1
                #expect(event.type == "bridge.error")
                #expect(strictID == nil, "message with id \(strictID ?? "") answered by an event")
            case nil:
                // Only cancel messages are answered by nothing.
                #expect(String(decoding: bytes, as: UTF8.self).contains("cancel"))
            }
        }
        #expect(responses > 0 && events > 0)
        #expect(await page.dispatcher.inFlightCount == 0)
    }
}
