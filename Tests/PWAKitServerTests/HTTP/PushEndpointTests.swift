import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PWAKitAPI
import PWAKitEncoding
import PWAKitServer
import Synchronization
import Testing

/// APNs as a script: answers in turn, and keeps every request.
final class ScriptedAPNs: HTTPTransport {
    let answers: Mutex<[(Int, String)]>
    let requests = Mutex<[HTTPRequestData]>([])
    init(_ answers: [(Int, String)]) { self.answers = Mutex(answers) }
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        requests.withLock { $0.append(request) }
        let (status, body) = answers.withLock { $0.isEmpty ? (200, "") : $0.removeFirst() }
        return HTTPResponseData(status: status, body: Data(body.utf8))
    }
}

@Suite("Push devices and sending")
struct PushEndpointTests {
    // NB: fresh per run: suites share one PostgreSQL database, and a token moves to whoever registers it last.
    static let tokenA = freshToken()
    static let tokenB = freshToken()

    static func freshToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    @Test(
        "a user registers, lists and removes devices; a token moves to whoever registers it last",
        arguments: StorageEngine.available)
    func registry(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let ann = try await client.register()
            let bob = try await client.register()
            let (tokenA, tokenB) = (Self.freshToken(), Self.freshToken())
            let created = try await client.send(.post, "/v1/devices", json: ["token": tokenA], token: ann.access)
            #expect(created.status == .created)
            #expect(created.json["environment"]?.string == "production")
            _ = try await client.send(
                .post, "/v1/devices", json: ["token": tokenB.uppercased(), "platform": "local", "environment": "sandbox"],
                token: ann.access)
            #expect(try await client.send(.get, "/v1/devices", token: ann.access).json.count == 2)
            _ = try await client.send(.post, "/v1/devices", json: ["token": tokenA], token: bob.access)
            #expect(try await client.send(.get, "/v1/devices", token: ann.access).json.count == 1)
            #expect(try await client.send(.delete, "/v1/devices/\(tokenA)", token: ann.access).status == .notFound)
            #expect(try await client.send(.delete, "/v1/devices/\(tokenA)", token: bob.access).status == .noContent)
            #expect(try await client.send(.delete, "/v1/devices/\(tokenB)", token: ann.access).status == .noContent)
            #expect(try await client.send(.get, "/v1/devices", token: ann.access).json.count == 0)
        }
    }

    @Test("hostile tokens, platforms and environments are refused naming the field; no token, no registering")
    func hostile() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let cases: [([String: Any], String)] = [
                (["token": "xyz"], "token"), (["token": "abc"], "token"),
                (["token": String(repeating: "a", count: 401)], "token"),
                (["token": "../../etc/passwd"], "token"), (["token": Self.tokenA, "platform": "fcm"], "platform"),
                (["token": Self.tokenA, "environment": "staging"], "environment"), ([:], "token"),
            ]
            for (body, field) in cases {
                let answer = try await client.send(.post, "/v1/devices", json: body, token: user.access)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(answer.json.errorField == field, "\(answer.text)")
            }
            #expect(try await client.send(.post, "/v1/devices", json: ["token": Self.tokenA]).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/devices/not-hex", token: user.access).json.errorField == "token")
        }
    }

    @Test("an administrator's push reaches every device of the user through the local sender; users cannot send")
    func localSender() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let harness = try await Harness.make(engine: .sqlite) { $0.pushSender = LocalPushSender(file: log) }
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let email = "push-\(uniqueSuffix())@example.com"
            let user = try await client.register(email: email)
            for token in [Self.freshToken(), Self.freshToken()] {
                _ = try await client.send(.post, "/v1/devices", json: ["token": token, "platform": "local"], token: user.access)
            }
            let body: [String: Any] = [
                "email": email, "title": "Hello", "body": "Your notes synced", "route": "pwakit://app/notes/today",
            ]
            let sent = try await client.send(.post, "/v1/admin/push", json: body, token: admin)
            #expect(sent.status == .ok, "\(sent.text)")
            #expect(sent.json["deliveries"]?.count == 2)
            #expect(sent.json["deliveries"]?[0]?["outcome"]?.string == "delivered")
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(first["route"] as? String == "pwakit://app/notes/today")
            #expect((first["payload"] as? [String: Any])?["route"] as? String == "pwakit://app/notes/today")
            #expect(try await client.send(.post, "/v1/admin/push", json: body, token: user.access).status == .forbidden)
            let noUser = try await client.send(
                .post, "/v1/admin/push", json: ["email": "nobody@example.com", "title": "t", "body": "b"], token: admin)
            #expect(noUser.json.errorField == "email")
            let badRoute = try await client.send(
                .post, "/v1/admin/push", json: ["email": email, "title": "t", "body": "b", "route": "no scheme"], token: admin)
            #expect(badRoute.json.errorField == "route")
        }
    }

    @Test("without a sender, sending is 503 push_unavailable")
    func noSender() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let answer = try await client.send(
                .post, "/v1/admin/push", json: ["email": harness.adminEmail, "title": "t", "body": "b"], token: admin)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.json.errorCode == "push_unavailable")
        }
    }

    @Test("APNs requests have Apple's documented shape, with a provider token the key verifies")
    func apnsRequestShape() async throws {
        let key = P256.Signing.PrivateKey()
        let credentials = try APNsRequest.Credentials(
            p8: key.pemRepresentation, keyId: "ABC123DEFG", teamId: "DEF123GHIJ", topic: "dev.pwakit.notes")
        let apns = ScriptedAPNs([(200, "")])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let sender = APNsSender(credentials: credentials, transport: apns, now: { now })
        let device = DeviceRecord(token: Self.tokenA, userId: "u", platform: "apns", environment: "sandbox", updatedAt: now)
        #expect(await sender.send(PushMessage(title: "Hi", body: "There", route: "pwakit://settings"), to: device) == .delivered)
        let request = try #require(apns.requests.withLock { $0.first })
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.sandbox.push.apple.com/3/device/\(Self.tokenA)")
        #expect(request.headers["apns-topic"] == "dev.pwakit.notes")
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(request.headers["apns-priority"] == "10")
        #expect(request.headers["apns-expiration"] == "1800086400")
        let payload = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String]) == ["title": "Hi", "body": "There"])
        #expect(payload["route"] as? String == "pwakit://settings")
        let jwt = try #require(request.headers["authorization"]?.replacingOccurrences(of: "bearer ", with: ""))
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        let claims = try #require(Base64URL.decode(parts[1]))
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iat":1800000000,"iss":"DEF123GHIJ"}"#)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test("APNs answers: dead tokens unregister, an expired provider token is renewed once, overload is retried later")
    func apnsAnswers() async throws {
        let credentials = try APNsRequest.Credentials(
            p8: P256.Signing.PrivateKey().pemRepresentation, keyId: "K", teamId: "T", topic: "dev.pwakit.notes")
        let device = DeviceRecord(token: Self.tokenA, userId: "u", platform: "apns", environment: "production", updatedAt: Date())
        let message = PushMessage(title: "t", body: "b")
        let cases: [([(Int, String)], PushOutcome, Int)] = [
            ([(410, #"{"reason":"Unregistered"}"#)], .invalidToken(reason: "Unregistered"), 1),
            ([(400, #"{"reason":"BadDeviceToken"}"#)], .invalidToken(reason: "BadDeviceToken"), 1),
            ([(400, #"{"reason":"PayloadTooLarge"}"#)], .failed(reason: "PayloadTooLarge"), 1),
            ([(403, #"{"reason":"ExpiredProviderToken"}"#), (200, "")], .delivered, 2),
            ([(403, #"{"reason":"InvalidProviderToken"}"#)], .failed(reason: "InvalidProviderToken"), 1),
            ([(429, #"{"reason":"TooManyRequests"}"#)], .retryLater(reason: "TooManyRequests"), 1),
            ([(503, "not json")], .retryLater(reason: "HTTP 503"), 1),
        ]
        for (answers, expected, requests) in cases {
            let apns = ScriptedAPNs(answers)
            let sender = APNsSender(credentials: credentials, transport: apns)
            #expect(await sender.send(message, to: device) == expected)
            #expect(apns.requests.withLock { $0.count } == requests)
        }
        let expiring = ScriptedAPNs([(403, #"{"reason":"ExpiredProviderToken"}"#), (200, "")])
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let renewing = APNsSender(credentials: credentials, transport: expiring, now: { clock.withLock { $0 } })
        _ = await renewing.send(message, to: device)
        let renewed = expiring.requests.withLock { $0.map { $0.headers["authorization"] ?? "" } }
        #expect(renewed.count == 2 && renewed[0] != renewed[1])

        // The provider token is reused for 50 minutes, then renewed with a new `iat`.
        let steady = ScriptedAPNs([])
        let sender = APNsSender(credentials: credentials, transport: steady, now: { clock.withLock { $0 } })
        _ = await sender.send(message, to: device)
        clock.withLock { $0 = $0.addingTimeInterval(49 * 60) }
        _ = await sender.send(message, to: device)
        clock.withLock { $0 = $0.addingTimeInterval(2 * 60) }
        _ = await sender.send(message, to: device)
        let tokens = steady.requests.withLock { $0.map { $0.headers["authorization"] ?? "" } }
        #expect(tokens[0] == tokens[1])
        #expect(tokens[1] != tokens[2])
        let claims = tokens[2].split(separator: ".")[1]
        #expect(
            Base64URL.decode(claims).map { String(decoding: $0, as: UTF8.self) }
                == #"{"iat":1800003060,"iss":"T"}"#)
    }

    @Test("a push to a dead token unregisters the device", arguments: StorageEngine.available)
    func deadTokensUnregister(engine: StorageEngine) async throws {
        let apns = ScriptedAPNs([(410, #"{"reason":"Unregistered"}"#), (200, "")])
        let credentials = try APNsRequest.Credentials(
            p8: P256.Signing.PrivateKey().pemRepresentation, keyId: "K", teamId: "T", topic: "dev.pwakit.notes")
        let harness = try await Harness.make(engine: engine) {
            $0.pushSender = APNsSender(credentials: credentials, transport: apns)
        }
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let email = "dead-\(uniqueSuffix())@example.com"
            let user = try await client.register(email: email)
            for token in [Self.freshToken(), Self.freshToken()] {
                _ = try await client.send(.post, "/v1/devices", json: ["token": token], token: user.access)
            }
            let sent = try await client.send(
                .post, "/v1/admin/push", json: ["email": email, "title": "t", "body": "b"], token: admin)
            let outcomes = (0..<2).compactMap { sent.json["deliveries"]?[$0]?["outcome"]?.string }
            #expect(outcomes.sorted() == ["delivered", "unregistered"])
            #expect(try await client.send(.get, "/v1/devices", token: user.access).json.count == 1)
        }
    }
}
