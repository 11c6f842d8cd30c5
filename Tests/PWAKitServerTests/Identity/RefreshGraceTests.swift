import Foundation
import HTTPTypes
import HummingbirdTesting
import PWAKitServer
import PWAKitTesting
import Testing

/// A client that lost the answer to a refresh retries it: within seconds, from the same address, it
/// is answered; anyone else, or later, is a theft that signs the session out.
@Suite("Refresh grace window")
struct RefreshGraceTests {
    static let client: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.7"]
    static let stranger: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"]

    @Test(
        "a retry within the window is answered, the lost token dies, the session lives", arguments: Transport.allCases,
        StorageEngine.available)
    func retry(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.trustForwardedFor = true }
        try await harness.test(transport) { client in
            let user = try await client.register()
            let first = try await client.send(
                .post, "/v1/auth/refresh", json: ["refreshToken": user.refresh], headers: Self.client)
            let lost = try #require(first.json["refreshToken"]?.string)
            harness.clock.advance(seconds: 4)
            let retried = try await client.send(
                .post, "/v1/auth/refresh", json: ["refreshToken": user.refresh], headers: Self.client)
            #expect(retried.status == .ok)
            let kept = try #require(retried.json["refreshToken"]?.string)
            #expect(kept != lost)
            let access = try #require(retried.json["accessToken"]?.string)
            #expect(try await client.send(.get, "/v1/me", token: access).status == .ok)
            // The session goes on with the new token.
            let next = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": kept], headers: Self.client)
            #expect(next.status == .ok)
            let latest = try #require(next.json["accessToken"]?.string)
            // Whoever holds the lost token presents it later: that is a reuse, and the session ends.
            harness.clock.advance(seconds: 60)
            let theft = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": lost], headers: Self.client)
            #expect(theft.json.errorCode == "refresh_token_reused")
            #expect(try await client.send(.get, "/v1/me", token: latest).status == .unauthorized)
        }
    }

    @Test("another address within the window, or the same one after it, revokes the session", arguments: StorageEngine.available)
    func theft(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.trustForwardedFor = true }
        try await harness.test(.router) { client in
            let victim = try await client.register()
            _ = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": victim.refresh], headers: Self.client)
            let stolen = try await client.send(
                .post, "/v1/auth/refresh", json: ["refreshToken": victim.refresh], headers: Self.stranger)
            #expect(stolen.json.errorCode == "refresh_token_reused")
            #expect(try await client.send(.get, "/v1/me", token: victim.access).status == .unauthorized)

            let late = try await client.register()
            _ = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": late.refresh], headers: Self.client)
            harness.clock.advance(seconds: 11)
            let afterWindow = try await client.send(
                .post, "/v1/auth/refresh", json: ["refreshToken": late.refresh], headers: Self.client)
            #expect(afterWindow.json.errorCode == "refresh_token_reused")
        }
    }

    @Test("with the grace off, any reuse revokes", arguments: StorageEngine.available)
    func graceOff(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.refreshReuseGrace = 0 }
        try await harness.test(.router) { client in
            let user = try await client.register()
            _ = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": user.refresh])
            let replay = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": user.refresh])
            #expect(replay.json.errorCode == "refresh_token_reused")
        }
    }

    @Test(
        "a burst of parallel refreshes of one token from one client: every answer is a live session or a clean refusal, and the session lives",
        arguments: StorageEngine.available)
    func parallelRetries(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.trustForwardedFor = true }
        try await harness.test(.router) { client in
            // NB: retries that raced each other for the same successor used to be taken for a reuse,
            // which revoked the session under every answer.
            for _ in 0..<5 {
                let user = try await client.register()
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            let response = try await client.send(
                                .post, "/v1/auth/refresh", json: ["refreshToken": user.refresh], headers: Self.client)
                            return (response.status, response.json["accessToken"]?.string)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.contains { $0.0 == .ok })
                #expect(answers.allSatisfy { $0.0 == .ok || $0.0 == .unauthorized })
                // The session lives: every access token answered works.
                for case (.ok, let access?) in answers {
                    let me = try await client.send(.get, "/v1/me", token: access)
                    #expect(me.status == .ok)
                }
            }
        }
    }
}
