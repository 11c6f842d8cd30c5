import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import NIOCore
import PWAKitBundles
import PWAKitServer
import PWAKitTesting
import Testing

/// The launch-token claims a mini-app backend checks.
private struct MiniAppLaunchClaims: JWTPayload {
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var nonce: String
    var bundle: String
    var email_verified: Bool

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite("Launch codes and tokens")
struct LaunchEndpointTests {
    private static func basic(_ id: String, _ secret: String) -> HTTPFields {
        [.authorization: "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()]
    }

    @Test(
        "a code is exchanged once, by its own app's backend, within 60 s", arguments: Transport.allCases, StorageEngine.available)
    func exchange(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "sso-\(uniqueSuffix())"
            let otherId = "other-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            try await client.createApp(otherId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            #expect(try await client.publish(fixture, admin: admin).status == .created)
            let credential = try await client.send(.post, "/v1/apps/\(appId)/credentials", token: admin)
            let otherCredential = try await client.send(.post, "/v1/apps/\(otherId)/credentials", token: admin)
            let own = Self.basic(credential.json["credentialId"]!.string!, credential.json["secret"]!.string!)
            let foreign = Self.basic(otherCredential.json["credentialId"]!.string!, otherCredential.json["secret"]!.string!)
            let user = try await client.register()

            let issued = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)
            #expect(issued.status == .created)
            let code = try #require(issued.json["code"]?.string)

            let wrongApp = try await client.send(.post, "/v1/launch/exchange", json: ["code": code], headers: foreign)
            #expect(wrongApp.status == .badRequest)
            #expect(wrongApp.json.errorCode == "invalid_launch_code")
            let noCredential = try await client.send(.post, "/v1/launch/exchange", json: ["code": code])
            #expect(noCredential.status == .unauthorized)
            let badSecret = try await client.send(
                .post, "/v1/launch/exchange", json: ["code": code],
                headers: Self.basic(credential.json["credentialId"]!.string!, "wrong-secret"))
            #expect(badSecret.status == .unauthorized)

            let exchanged = try await client.send(.post, "/v1/launch/exchange", json: ["code": code], headers: own)
            #expect(exchanged.status == .ok)
            #expect(exchanged.json["user"]?["id"]?.string == user.id)
            #expect(exchanged.json["user"]?["emailVerified"]?.bool == false)
            #expect(exchanged.json["bundleHash"]?.string == fixture.bundleHash)
            let replay = try await client.send(.post, "/v1/launch/exchange", json: ["code": code], headers: own)
            #expect(replay.json.errorCode == "invalid_launch_code")

            let late = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)
            harness.clock.advance(seconds: 61)
            let expired = try await client.send(
                .post, "/v1/launch/exchange", json: ["code": late.json["code"]!.string!], headers: own)
            #expect(expired.json.errorCode == "invalid_launch_code")
        }
    }

    @Test(
        "failed exchanges are limited per address, parallel ones too; a good exchange does not count",
        arguments: StorageEngine.available)
    func exchangeThrottle(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) {
            $0.trustForwardedFor = true; $0.exchangeFailureLimit = 6
        }
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "throttled-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            _ = try await client.publish(fixture, admin: admin)
            let credential = try await client.send(.post, "/v1/apps/\(appId)/credentials", token: admin)
            let id = credential.json["credentialId"]!.string!
            let good = Self.basic(id, credential.json["secret"]!.string!)
            let user = try await client.register()
            let suffix = uniqueSuffix()
            func from(_ address: String, _ fields: HTTPFields) -> HTTPFields {
                var fields = fields
                fields[HTTPField.Name("X-Forwarded-For")!] = "\(address)-\(suffix)"
                return fields
            }
            // A good exchange takes its reservation back.
            for _ in 0..<8 {
                let code = try await client.send(
                    .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)
                let answer = try await client.send(
                    .post, "/v1/launch/exchange", json: ["code": code.json["code"]!.string!], headers: from("192.0.2.8", good))
                #expect(answer.status == .ok)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await client.send(
                            .post, "/v1/launch/exchange", json: ["code": "guess"],
                            headers: from("203.0.113.66", Self.basic(id, "wrong-secret"))
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 6)
            #expect(statuses.filter { $0 == 429 }.count == 24)
        }
    }

    @Test("launch codes are limited per user, parallel requests too", arguments: StorageEngine.available)
    func launchCodeLimit(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.launchCodeLimit = 5 }
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "limited-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            _ = try await client.publish(fixture, admin: admin)
            let user = try await client.register()
            let other = try await client.register()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await client.send(
                            .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash],
                            token: user.access
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 5)
            #expect(statuses.filter { $0 == 429 }.count == 15)
            let another = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: other.access)
            #expect(another.status == .created)
        }
    }

    @Test(
        "the launch token verifies offline with the published key: audience, expiry, nonce", arguments: Transport.allCases,
        StorageEngine.available)
    func offlineToken(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "offline-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            _ = try await client.publish(fixture, admin: admin)
            let user = try await client.register()
            let first = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)
            let second = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)

            let jwks = try await client.send(.get, "/v1/launch/keys")
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: jwks.text)
            let claims = try await keys.verify(try #require(first.json["launchToken"]?.string), as: MiniAppLaunchClaims.self)
            let again = try await keys.verify(try #require(second.json["launchToken"]?.string), as: MiniAppLaunchClaims.self)
            #expect(claims.sub.value == user.id)
            #expect(claims.aud.value == [appId])
            #expect(claims.bundle == fixture.bundleHash)
            #expect(claims.exp.value.timeIntervalSince(harness.clock.date) <= 60)
            #expect(claims.nonce != again.nonce)
            #expect(claims.email_verified == false)

            let forged = flipSignatureCharacter(try #require(first.json["launchToken"]?.string))
            await #expect(throws: (any Error).self) { try await keys.verify(forged, as: MiniAppLaunchClaims.self) }
        }
    }

    @Test("codes need a signed-in user and a known release of that app", arguments: Transport.allCases, StorageEngine.available)
    func issueValidation(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "codes-\(uniqueSuffix())"
            try await client.createApp(appId, admin: admin)
            let user = try await client.register()
            let hash = String(repeating: "a", count: 64)
            #expect(
                try await client.send(.post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": hash]).status
                    == .unauthorized)
            let unknownRelease = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": hash], token: user.access)
            #expect(unknownRelease.status == .notFound)
            let badHash = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": "xyz"], token: user.access)
            #expect(badHash.json.errorField == "bundleHash")
            let badApp = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": "../x", "bundleHash": hash], token: user.access)
            #expect(badApp.json.errorField == "appId")
            let emptyCode = try await client.send(
                .post, "/v1/launch/exchange", json: ["code": ""],
                headers: Self.basic("nobody", "nothing"))
            #expect(emptyCode.status == .unauthorized)
        }
    }
}
