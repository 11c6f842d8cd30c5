import Foundation
import Testing

@testable import WatchLink

struct Ping: WatchRequest {
    typealias Response = Pong
    var text: String
}

struct Pong: Codable, Sendable, Equatable {
    var text: String
}

struct Note: WatchFireAndForget {
    static var typeKey: WatchTypeKey { WatchTypeKey("test.note") }
    var body: String
}

@Suite struct RequestRegistryTests {
    @Test func defaultKeyIsModuleQualified() {
        #expect(Ping.typeKey.rawValue == "WatchLinkTests.Ping")
        #expect(Note.typeKey.rawValue == "test.note")
    }

    @Test func secondRegistrationIsAnError() throws {
        let registry = HandlerRegistry()
        try registry.register(Ping.self) { Pong(text: $0.text) }
        #expect(throws: WatchLinkError.self) { try registry.register(Ping.self) { _ in Pong(text: "other") } }
        do {
            try registry.register(Ping.self) { _ in Pong(text: "other") }
            Issue.record("a second registration for the same key succeeded")
        } catch {
            #expect(error.code == .duplicateRegistration)
            #expect(error.details["typeKey"] == "WatchLinkTests.Ping")
        }
    }

    @Test func invalidKeyIsRejected() {
        let registry = HandlerRegistry()
        #expect(throws: WatchLinkError.self) { try registry.registerErased(WatchTypeKey("")) { $0 } }
        #expect(throws: WatchLinkError.self) {
            try registry.registerErased(WatchTypeKey(String(repeating: "k", count: 300))) { $0 }
        }
    }

    @Test func runDecodesCallsAndEncodes() async throws {
        let registry = HandlerRegistry()
        try registry.register(Ping.self) { Pong(text: $0.text.uppercased()) }
        let out = try await registry.run(Ping.typeKey, payload: WireCodec.encodeValue(Ping(text: "hi")))
        #expect(try WatchPayload.decode(Pong.self, from: out) == Pong(text: "HI"))
    }

    @Test func runReportsMissingHandlerBadPayloadAndThrownErrors() async throws {
        let registry = HandlerRegistry()
        struct Boom: Error {}
        try registry.register(Ping.self) { request in
            if request.text == "boom" { throw Boom() }
            throw WatchLinkError("app.refused", "no")
        }
        await #expect(throws: WatchLinkError.self) { try await registry.run(WatchTypeKey("nope"), payload: Data()) }
        do {
            _ = try await registry.run(Ping.typeKey, payload: Data("{\"text\":5}".utf8))
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .decodingFailed)
            #expect(error.details["field"] == "payload.text")
        }
        do {
            _ = try await registry.run(Ping.typeKey, payload: WireCodec.encodeValue(Ping(text: "boom")))
            Issue.record("expected the handler's failure")
        } catch {
            #expect(error.code == .handlerFailed)
        }
        do {
            _ = try await registry.run(Ping.typeKey, payload: WireCodec.encodeValue(Ping(text: "x")))
            Issue.record("expected the handler's own error code")
        } catch {
            #expect(error.code.rawValue == "app.refused")
        }
    }
}
