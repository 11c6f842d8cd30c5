import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitServer
import PWAKitTesting
import Testing

@Suite("Identity endpoints")
struct IdentityEndpointTests {
    @Test("register, me, login, refresh rotation, logout", arguments: Transport.allCases, StorageEngine.available)
    func fullCycle(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let email = "Person-\(uniqueSuffix())@Example.com"
            let registered = try await client.send(
                .post, "/v1/auth/register", json: ["email": email, "password": "long enough", "displayName": "Ada"])
            #expect(registered.status == .accepted)
            #expect(registered.json["status"]?.string == "accepted")
            #expect(registered.json["accessToken"] == nil)
            let signedIn = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "long enough"])
            #expect(signedIn.json["user"]?["email"]?.string == email.lowercased())
            #expect(signedIn.json["tokenType"]?.string == "Bearer")
            let access = try #require(signedIn.json["accessToken"]?.string)
            let refresh = try #require(signedIn.json["refreshToken"]?.string)

            let me = try await client.send(.get, "/v1/me", token: access)
            #expect(me.status == .ok)
            #expect(me.json["displayName"]?.string == "Ada")
            #expect(me.json["role"]?.string == "user")

            let login = try await client.send(
                .post, "/v1/auth/login", json: ["email": email.uppercased(), "password": "long enough"])
            #expect(login.status == .ok)

            let rotated = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": refresh])
            #expect(rotated.status == .ok, "\(rotated.text)")
            let nextRefresh = try #require(rotated.json["refreshToken"]?.string)
            #expect(nextRefresh != refresh)

            let logout = try await client.send(.post, "/v1/auth/logout", json: ["refreshToken": nextRefresh], token: access)
            #expect(logout.status == .noContent)
            let afterLogout = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": nextRefresh])
            #expect(afterLogout.status == .unauthorized)
            #expect(afterLogout.json.errorCode == "refresh_token_reused" || afterLogout.json.errorCode == "invalid_refresh_token")
            // Logout ends the session's access tokens too, before they expire; other sessions go on.
            let meAfterLogout = try await client.send(.get, "/v1/me", token: access)
            #expect(meAfterLogout.status == .unauthorized)
            #expect(meAfterLogout.json.errorCode == "unauthorized")
            let otherSession = try #require(login.json["accessToken"]?.string)
            #expect(try await client.send(.get, "/v1/me", token: otherSession).status == .ok)
        }
    }

    @Test("a reused refresh token revokes its whole family", arguments: Transport.allCases, StorageEngine.available)
    func refreshReuseRevokesFamily(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let user = try await client.register()
            let first = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": user.refresh])
            let second = try #require(first.json["refreshToken"]?.string)
            // After the grace window (a retry within it is answered; see RefreshGraceTests).
            harness.clock.advance(seconds: 11)
            let replay = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": user.refresh])
            #expect(replay.status == .unauthorized)
            #expect(replay.json.errorCode == "refresh_token_reused")
            #expect(replay.json.errorField == "refreshToken")
            // The legitimate successor is revoked too.
            let successor = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": second])
            #expect(successor.status == .unauthorized)
            // And so are the family's access tokens.
            #expect(try await client.send(.get, "/v1/me", token: user.access).status == .unauthorized)
            let secondAccess = try #require(first.json["accessToken"]?.string)
            #expect(try await client.send(.get, "/v1/me", token: secondAccess).status == .unauthorized)
            let unknown = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": "no-such-token"])
            #expect(unknown.json.errorCode == "invalid_refresh_token")
        }
    }

    @Test("tokens expire by the injected clock", arguments: Transport.allCases, StorageEngine.available)
    func expiry(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let user = try await client.register()
            #expect(try await client.send(.get, "/v1/me", token: user.access).status == .ok)
            harness.clock.advance(seconds: 15 * 60 + 1)
            let me = try await client.send(.get, "/v1/me", token: user.access)
            #expect(me.status == .unauthorized)
            #expect(me.json.errorCode == "unauthorized")
            #expect(me.headers[.wwwAuthenticate] == "Bearer")
            let refreshed = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": user.refresh])
            #expect(refreshed.status == .ok)
            harness.clock.advance(seconds: 31 * 24 * 3600)
            let stale = try #require(refreshed.json["refreshToken"]?.string)
            let expired = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": stale])
            #expect(expired.json.errorCode == "invalid_refresh_token")
        }
    }

    @Test("login errors are uniform and throttled per account", arguments: Transport.allCases, StorageEngine.available)
    func loginThrottlePerAccount(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let email = "victim-\(uniqueSuffix())@example.com"
            _ = try await client.register(email: email, password: "right password")
            let wrongPassword = try await client.send(
                .post, "/v1/auth/login", json: ["email": email, "password": "wrong password"])
            let noAccount = try await client.send(
                .post, "/v1/auth/login", json: ["email": "nobody-\(uniqueSuffix())@example.com", "password": "wrong password"])
            #expect(wrongPassword.status == .unauthorized)
            #expect(wrongPassword.body == noAccount.body)
            for _ in 0..<4 {
                let judged = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "wrong"])
                #expect(judged.status == .unauthorized, "\(judged.status) \(judged.text)")
            }
            let blocked = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "right password"])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.json.errorCode == "too_many_attempts")
            #expect(blocked.headers[.retryAfter] == "900")
            harness.clock.advance(seconds: 15 * 60 + 1)
            let allowed = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "right password"])
            #expect(allowed.status == .ok)
        }
    }

    @Test("a burst of 100 parallel wrong logins is judged at most 5 times", arguments: StorageEngine.available)
    func parallelGuessesHoldTheLimit(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let email = "burst-\(uniqueSuffix())@example.com"
            _ = try await client.register(email: email, password: "right password")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "guess \(index)"])
                            .status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count <= 5)
            #expect(statuses.filter { $0 == 401 }.count + statuses.filter { $0 == 429 }.count == 100)
        }
    }

    @Test("a stranger's failures from many addresses do not lock the owner out of an address they used before")
    func knownAddressIsNotStarved() async throws {
        let harness = try await Harness.make(engine: .sqlite) {
            $0.trustForwardedFor = true; $0.accountFailureLimit = 8; $0.pairFailureLimit = 3
        }
        try await harness.test(.router) { client in
            let suffix = uniqueSuffix()
            let email = "owner-\(suffix)@example.com"
            let home: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "192.0.2.1-\(suffix)"]
            let registered = try await client.send(
                .post, "/v1/auth/register", json: ["email": email, "password": "owner password"], headers: home)
            #expect(registered.status == .accepted)
            let first = try await client.send(
                .post, "/v1/auth/login", json: ["email": email, "password": "owner password"], headers: home)
            #expect(first.status == .ok)
            // A stranger guesses from ten addresses, three times each: the per-address pair limit holds
            // for each, and the account-wide limit (8) is reached.
            var refused = 0
            for address in 0..<10 {
                for _ in 0..<3 {
                    let guess = try await client.send(
                        .post, "/v1/auth/login", json: ["email": email, "password": "guess"],
                        headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(address)-\(suffix)"])
                    if guess.status == .tooManyRequests { refused += 1 }
                }
            }
            #expect(refused == 30 - 8)
            // The owner, from the address they signed in from before, still gets in.
            let owner = try await client.send(
                .post, "/v1/auth/login", json: ["email": email, "password": "owner password"], headers: home)
            #expect(owner.status == .ok)
            // From a new address the account-wide limit applies (the trade-off, documented).
            let elsewhere = try await client.send(
                .post, "/v1/auth/login", json: ["email": email, "password": "owner password"],
                headers: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.77-\(suffix)"])
            #expect(elsewhere.status == .tooManyRequests)
        }
    }

    @Test("registrations are limited per address, atomically", arguments: StorageEngine.available)
    func registrationFlood(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) {
            $0.trustForwardedFor = true; $0.registrationLimit = 10
        }
        try await harness.test(.router) { client in
            let suffix = uniqueSuffix()
            let flood: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.50-\(suffix)"]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        try await client.send(
                            .post, "/v1/auth/register",
                            json: ["email": "flood\(index)-\(suffix)@example.com", "password": "long enough password"],
                            headers: flood
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 202 }.count == 10)
            #expect(statuses.filter { $0 == 429 }.count == 30)
            let other = try await client.send(
                .post, "/v1/auth/register", json: ["email": "calm-\(suffix)@example.com", "password": "long enough password"],
                headers: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.50-\(suffix)"])
            #expect(other.status == .accepted)
        }
    }

    @Test("a registration flood past the hashing queue is refused with 503 busy; signed-in requests still answer")
    func hashingQueueBounded() async throws {
        let harness = try await Harness.make(engine: .sqlite) {
            $0.passwordHashing = ScryptParameters(n: 1 << 14, r: 8, p: 1); $0.hashingQueueLimit = 1
            // NB: threads of its own, so that its costly hashes (2^14) never queue in front of the other
            // suites' hashes on the threads every server in this process shares.
            $0.hashingThreads = 1
        }
        try await harness.test(.router) { client in
            let user = try await client.register(email: "steady-\(uniqueSuffix())@example.com", password: "steady password")
            let suffix = uniqueSuffix()
            async let me = client.send(.get, "/v1/me", token: user.access)
            let answers = try await withThrowingTaskGroup(of: (Int, String?, String?).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let answer = try await client.send(
                            .post, "/v1/auth/register",
                            json: ["email": "wave\(index)-\(suffix)@example.com", "password": "long enough password"])
                        return (Int(answer.status.code), answer.json.errorCode, answer.headers[.retryAfter])
                    }
                }
                return try await group.reduce(into: [(Int, String?, String?)]()) { $0.append($1) }
            }
            #expect(try await me.status == .ok)
            #expect(answers.allSatisfy { $0.0 == 202 || $0.0 == 503 })
            let busy = answers.filter { $0.0 == 503 }
            #expect(!busy.isEmpty, "40 parallel registrations over a queue of 1")
            #expect(busy.allSatisfy { $0.1 == "busy" && $0.2 == "1" })
        }
    }

    @Test("login is throttled per client address across accounts", arguments: StorageEngine.available)
    func loginThrottlePerAddress(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) {
            $0.trustForwardedFor = true; $0.addressFailureLimit = 3
        }
        try await harness.test(.router) { client in
            // NB: addresses and emails are unique per run: PostgreSQL keeps earlier runs' failures.
            let suffix = uniqueSuffix()
            let attacker: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9-\(suffix)"]
            for index in 0..<3 {
                _ = try await client.send(
                    .post, "/v1/auth/login", json: ["email": "a\(index)-\(suffix)@example.com", "password": "guess"],
                    headers: attacker)
            }
            let fresh = "fresh-\(suffix)@example.com"
            let blocked = try await client.send(
                .post, "/v1/auth/login", json: ["email": fresh, "password": "guess"], headers: attacker)
            #expect(blocked.json.errorCode == "too_many_attempts")
            let other = try await client.send(
                .post, "/v1/auth/login", json: ["email": fresh, "password": "guess"],
                headers: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.4-\(suffix)"])
            #expect(other.json.errorCode == "invalid_credentials")
        }
    }

    @Test(
        "behind a proxy the address is the entry the proxy appended, not one the client wrote", arguments: StorageEngine.available
    )
    func forwardedForRightMost(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) {
            $0.trustForwardedFor = true; $0.addressFailureLimit = 3
        }
        try await harness.test(.router) { client in
            let suffix = uniqueSuffix()
            // The attacker writes a new left-most entry every time; the proxy appends the same real address.
            for index in 0..<3 {
                let judged = try await client.send(
                    .post, "/v1/auth/login", json: ["email": "x\(index)-\(suffix)@example.com", "password": "guess"],
                    headers: [HTTPField.Name("X-Forwarded-For")!: "10.0.0.\(index), 203.0.113.7-\(suffix)"])
                #expect(judged.status == .unauthorized, "\(judged.status) \(judged.text)")
            }
            let blocked = try await client.send(
                .post, "/v1/auth/login", json: ["email": "y-\(suffix)@example.com", "password": "guess"],
                headers: [HTTPField.Name("X-Forwarded-For")!: "10.9.9.9, 203.0.113.7-\(suffix)"])
            #expect(blocked.json.errorCode == "too_many_attempts")
        }
        let twoHops = try await Harness.make(engine: engine) {
            $0.trustForwardedFor = true; $0.trustedProxyHops = 2; $0.addressFailureLimit = 2
        }
        try await twoHops.test(.router) { client in
            let suffix = uniqueSuffix()
            for index in 0..<2 {
                _ = try await client.send(
                    .post, "/v1/auth/login", json: ["email": "z\(index)-\(suffix)@example.com", "password": "guess"],
                    headers: [HTTPField.Name("X-Forwarded-For")!: "spoof-\(index), 198.51.100.2-\(suffix), 10.1.1.1"])
            }
            let blocked = try await client.send(
                .post, "/v1/auth/login", json: ["email": "w-\(suffix)@example.com", "password": "guess"],
                headers: [HTTPField.Name("X-Forwarded-For")!: "spoof-9, 198.51.100.2-\(suffix), 10.1.1.2"])
            #expect(blocked.json.errorCode == "too_many_attempts")
        }
    }

    @Test(
        "registration validates every field and answers a taken email exactly like a new one", arguments: Transport.allCases,
        StorageEngine.available)
    func registrationValidation(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let cases: [([String: Any], String)] = [
                (["email": "not-an-email", "password": "long enough"], "email"),
                (["email": "a@b.co", "password": "short"], "password"),
                (["email": "a@b.co", "password": String(repeating: "x", count: 2000)], "password"),
                (["email": "a@b.co", "password": "long enough", "displayName": "\u{0007}bell"], "displayName"),
                (["email": "a@b.co", "password": "long enough", "displayName": ""], "displayName"),
                (["password": "long enough"], "email"),
                (["email": "a@b.co", "password": 12345678], "password"),
            ]
            for (body, field) in cases {
                let response = try await client.send(.post, "/v1/auth/register", json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.json.errorCode == "invalid_request")
                #expect(response.json.errorField == field, "\(body)")
            }
            let email = "taken-\(uniqueSuffix())@example.com"
            let first = try await client.send(.post, "/v1/auth/register", json: ["email": email, "password": "first one"])
            let again = try await client.send(
                .post, "/v1/auth/register", json: ["email": email.uppercased(), "password": "another one"])
            let fresh = try await client.send(
                .post, "/v1/auth/register", json: ["email": "fresh-\(uniqueSuffix())@example.com", "password": "another one"])
            #expect(again.status == .accepted)
            #expect(again.status == fresh.status)
            #expect(again.headers[.contentType] == fresh.headers[.contentType])
            #expect(again.body == fresh.body)
            #expect(again.body == first.body)
            // The account keeps its owner's password; the second registration changed nothing.
            let owner = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "first one"])
            #expect(owner.status == .ok)
            let intruder = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "another one"])
            #expect(intruder.json.errorCode == "invalid_credentials")
        }
    }

    @Test(
        "me and logout need a valid token; another user's refresh token is not revoked", arguments: Transport.allCases,
        StorageEngine.available)
    func authorization(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            for token in [nil, "garbage", "a.b.c", String(repeating: "x", count: 5000)] as [String?] {
                let response = try await client.send(.get, "/v1/me", token: token)
                #expect(response.status == .unauthorized)
                #expect(response.json.errorCode == "unauthorized")
            }
            let alice = try await client.register()
            let bob = try await client.register()
            let logout = try await client.send(.post, "/v1/auth/logout", json: ["refreshToken": bob.refresh], token: alice.access)
            #expect(logout.status == .noContent)
            let bobRefresh = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": bob.refresh])
            #expect(bobRefresh.status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: flipSignatureCharacter(alice.access)).status == .unauthorized)
            // The scheme is case-insensitive and spaces around the token do not matter; other schemes are refused.
            for (header, status) in [
                ("bEaReR \(alice.access)", HTTPResponse.Status.ok), ("Bearer  \t\(alice.access) ", .ok),
                ("Bearer", .unauthorized), ("Bearer   ", .unauthorized), ("Bearer\(alice.access)", .unauthorized),
                ("Token \(alice.access)", .unauthorized),
            ] {
                let response = try await client.send(.get, "/v1/me", headers: [.authorization: header])
                #expect(response.status == status, "\(header.prefix(12))")
            }
        }
    }
}
