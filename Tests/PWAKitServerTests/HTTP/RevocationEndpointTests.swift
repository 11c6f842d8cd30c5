import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import PWAKitServer
import Testing

/// Revoking publisher keys and backend credentials, and publishing rights per app.
@Suite("Revocation and publishing rights")
struct RevocationEndpointTests {
    @Test(
        "a revoked key signs nothing new; its releases stay unless withdrawn; withdrawn versions still bar rollback",
        arguments: Transport.allCases, StorageEngine.available)
    func publisherKeys(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "rev-\(uniqueSuffix())"
            let old = try await client.createApp(appId, admin: admin)
            let v1 = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: old)
            #expect(try await client.publish(v1, admin: admin).status == .created)
            let user = try await client.register()

            // Only an administrator revokes; unknown keys and bad flags are named.
            let byUser = try await client.send(.delete, "/v1/apps/\(appId)/keys/\(old.verifyingKey.keyId)", token: user.access)
            #expect(byUser.status == .forbidden)
            let unknown = try await client.send(.delete, "/v1/apps/\(appId)/keys/ed25519-0000000000000000", token: admin)
            #expect(unknown.status == .notFound)
            let badFlag = try await client.send(
                .delete, "/v1/apps/\(appId)/keys/\(old.verifyingKey.keyId)?withdrawReleases=yes", token: admin)
            #expect(badFlag.status == .badRequest)
            #expect(badFlag.json.errorField == "withdrawReleases")

            let revoked = try await client.send(.delete, "/v1/apps/\(appId)/keys/\(old.verifyingKey.keyId)", token: admin)
            #expect(revoked.status == .ok)
            #expect(revoked.json["withdrawnReleases"]?.int == 0)
            #expect(revoked.json["key"]?["revokedAt"]?.string != nil)
            let listed = try await client.send(.get, "/v1/apps/\(appId)/keys", token: admin)
            #expect(listed.json["keys"]?[0]?["revokedAt"]?.string == revoked.json["key"]?["revokedAt"]?.string)
            // Revoking again changes nothing.
            let again = try await client.send(.delete, "/v1/apps/\(appId)/keys/\(old.verifyingKey.keyId)", token: admin)
            #expect(again.json["key"]?["revokedAt"]?.string == revoked.json["key"]?["revokedAt"]?.string)

            // A new release signed by the revoked key is refused, naming the key.
            let refused = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "1.1.0", key: old, files: ["index.html": [9]]), admin: admin)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.json.errorCode == "key_revoked")
            #expect(refused.json.errorField == "keyId")
            // What it signed before stays served.
            let latest = try await client.send(.get, "/v1/apps/\(appId)/releases/latest", token: user.access)
            #expect(latest.json["release"]?["bundleHash"]?.string == v1.bundleHash)

            // Rotation: a new key publishes; then the old key's releases are withdrawn after all.
            let new = SigningKey.generate()
            let added = try await client.send(
                .post, "/v1/apps/\(appId)/keys", json: ["publicKey": new.verifyingKey.base64], token: admin)
            #expect(added.status == .created)
            let v2 = try ReleaseFixture.make(appId: appId, version: "2.0.0", key: new, files: ["index.html": [2]])
            #expect(try await client.publish(v2, admin: admin).status == .created)
            let v3 = try ReleaseFixture.make(appId: appId, version: "3.0.0", key: new, files: ["index.html": [3]])
            #expect(try await client.publish(v3, admin: admin).status == .created)
            let withdrawNew = try await client.send(
                .delete, "/v1/apps/\(appId)/keys/\(new.verifyingKey.keyId)?withdrawReleases=true", token: admin)
            #expect(withdrawNew.json["withdrawnReleases"]?.int == 2)
            let afterWithdrawal = try await client.send(.get, "/v1/apps/\(appId)/releases/latest", token: user.access)
            #expect(afterWithdrawal.json["release"]?["bundleHash"]?.string == v1.bundleHash)
            let manifest = try await client.send(.get, "/v1/apps/\(appId)/releases/\(v3.bundleHash)/manifest", token: user.access)
            #expect(manifest.status == .notFound)
            let code = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": v3.bundleHash], token: user.access)
            #expect(code.status == .notFound)
            // A channel never goes back below a withdrawn version.
            let third = SigningKey.generate()
            _ = try await client.send(
                .post, "/v1/apps/\(appId)/keys", json: ["publicKey": third.verifyingKey.base64], token: admin)
            let below = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "2.5.0", key: third, files: ["index.html": [4]]), admin: admin)
            #expect(below.json.errorCode == "version_not_newer")
            let above = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "3.0.1", key: third, files: ["index.html": [5]]), admin: admin)
            #expect(above.status == .created)
        }
    }

    @Test(
        "a revoked backend credential authenticates nothing; listings never show secrets",
        arguments: Transport.allCases, StorageEngine.available)
    func credentials(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "cred-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            #expect(try await client.publish(fixture, admin: admin).status == .created)
            let created = try await client.send(.post, "/v1/apps/\(appId)/credentials", token: admin)
            let credentialId = try #require(created.json["credentialId"]?.string)
            let secret = try #require(created.json["secret"]?.string)
            let basic: HTTPFields = [.authorization: "Basic " + Data("\(credentialId):\(secret)".utf8).base64EncodedString()]
            let user = try await client.register()
            func code() async throws -> String {
                let issued = try await client.send(
                    .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": fixture.bundleHash], token: user.access)
                return try #require(issued.json["code"]?.string)
            }
            #expect(try await client.send(.post, "/v1/launch/exchange", json: ["code": code()], headers: basic).status == .ok)

            let listed = try await client.send(.get, "/v1/apps/\(appId)/credentials", token: admin)
            #expect(listed.json["credentials"]?[0]?["credentialId"]?.string == credentialId)
            #expect(listed.json["credentials"]?[0]?["secret"] == nil)
            #expect(!listed.text.contains(secret))
            #expect(try await client.send(.get, "/v1/apps/\(appId)/credentials", token: user.access).status == .forbidden)

            let wrongApp = try await client.send(.delete, "/v1/apps/other-\(appId)/credentials/\(credentialId)", token: admin)
            #expect(wrongApp.status == .notFound)
            let revoked = try await client.send(.delete, "/v1/apps/\(appId)/credentials/\(credentialId)", token: admin)
            #expect(revoked.status == .ok)
            #expect(revoked.json["revokedAt"]?.string != nil)
            let refused = try await client.send(.post, "/v1/launch/exchange", json: ["code": code()], headers: basic)
            #expect(refused.status == .unauthorized)
            let missing = try await client.send(.delete, "/v1/apps/\(appId)/credentials/cred_nothing", token: admin)
            #expect(missing.status == .notFound)
        }
    }

    @Test(
        "publishing rights per app: a granted user publishes that app only and manages nothing",
        arguments: Transport.allCases, StorageEngine.available)
    func publishers(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "pub-\(uniqueSuffix())"
            let otherId = "pub-other-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let otherKey = try await client.createApp(otherId, admin: admin)
            let email = "publisher-\(uniqueSuffix())@example.com"
            let publisher = try await client.register(email: email)
            let v1 = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)

            // Before the grant: no uploads, no publishing.
            let early = try await client.send(
                .post, "/v1/blobs/missing", json: ["sha256": [SHA256.hex(of: [1])]], token: publisher.access)
            #expect(early.status == .forbidden)
            #expect(
                try await client.send(.post, "/v1/apps/\(appId)/releases", json: v1.publishBody(), token: publisher.access).status
                    == .forbidden)

            // Bad grants name the field.
            let unknown = try await client.send(
                .post, "/v1/apps/\(appId)/publishers", json: ["email": "nobody-\(uniqueSuffix())@example.com"], token: admin)
            #expect(unknown.status == .notFound)
            #expect(unknown.json.errorField == "email")
            let malformed = try await client.send(
                .post, "/v1/apps/\(appId)/publishers", json: ["email": "not-an-email"], token: admin)
            #expect(malformed.status == .badRequest)
            #expect(malformed.json.errorField == "email")
            let notJSON = try await client.send(.post, "/v1/apps/\(appId)/publishers", body: "{\"email\":", token: admin)
            #expect(notJSON.status == .badRequest)
            let byUser = try await client.send(
                .post, "/v1/apps/\(appId)/publishers", json: ["email": email], token: publisher.access)
            #expect(byUser.status == .forbidden)

            let granted = try await client.send(.post, "/v1/apps/\(appId)/publishers", json: ["email": email], token: admin)
            #expect(granted.status == .created)
            #expect(granted.json["userId"]?.string == publisher.id)
            let regranted = try await client.send(
                .post, "/v1/apps/\(appId)/publishers", json: ["email": email.uppercased()], token: admin)
            #expect(regranted.status == .ok)
            let listed = try await client.send(.get, "/v1/apps/\(appId)/publishers", token: admin)
            #expect(listed.json["publishers"]?.count == 1)
            #expect(listed.json["publishers"]?[0]?["email"]?.string == email)

            // Granted: uploads, publishes and sets the rollout of that app.
            #expect(try await client.publish(v1, admin: publisher.access).status == .created)
            let rollout = try await client.send(
                .put, "/v1/apps/\(appId)/channels/stable/releases/1.0.0/rollout", json: ["rolloutPercent": 50],
                token: publisher.access)
            #expect(rollout.status == .noContent)
            // Not another app, and no key, credential or publisher management.
            let foreign = try ReleaseFixture.make(appId: otherId, version: "1.0.0", key: otherKey)
            #expect(try await client.publish(foreign, admin: publisher.access).status == .forbidden)
            let keyByPublisher = try await client.send(
                .post, "/v1/apps/\(appId)/keys", json: ["publicKey": SigningKey.generate().verifyingKey.base64],
                token: publisher.access)
            #expect(keyByPublisher.status == .forbidden)
            #expect(
                try await client.send(.post, "/v1/apps/\(appId)/credentials", token: publisher.access).status == .forbidden)
            #expect(
                try await client.send(.delete, "/v1/apps/\(appId)/keys/\(key.verifyingKey.keyId)", token: publisher.access)
                    .status == .forbidden)

            // Revoked: back to nothing.
            let revoke = try await client.send(.delete, "/v1/apps/\(appId)/publishers/\(publisher.id)", token: admin)
            #expect(revoke.status == .noContent)
            #expect(
                try await client.send(.delete, "/v1/apps/\(appId)/publishers/\(publisher.id)", token: admin).status == .notFound)
            let v2 = try ReleaseFixture.make(appId: appId, version: "1.1.0", key: key, files: ["index.html": [7]])
            try await client.uploadBlobs(v2, admin: admin)
            #expect(
                try await client.send(.post, "/v1/apps/\(appId)/releases", json: v2.publishBody(), token: publisher.access).status
                    == .forbidden)
            let upload = try await client.send(
                .post, "/v1/blobs/missing", json: ["sha256": [SHA256.hex(of: [1])]], token: publisher.access)
            #expect(upload.status == .forbidden)
        }
    }

    @Test("seeded publishers: granted at start, unknown emails named", arguments: StorageEngine.available)
    func seededPublishers(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let s = uniqueSuffix()
        let seed = ServerSeed(
            users: [.init(email: "seeded-\(s)@example.com", password: "seeded-password")],
            apps: [.init(id: "seeded-\(s)", name: "Seeded", publishers: ["seeded-\(s)@example.com"])])
        let lines = try await harness.server.apply(seed)
        #expect(lines.contains("publisher seeded-\(s)@example.com for seeded-\(s)"))
        #expect(try await harness.server.apply(seed).isEmpty)
        let bad = ServerSeed(apps: [.init(id: "seeded-\(s)", name: "Seeded", publishers: ["ghost-\(s)@example.com"])])
        await #expect {
            try await harness.server.apply(bad)
        } throws: { error in
            "\(error)".contains("apps[0].publishers[0]")
        }
        try await harness.server.storage.close()
    }
}
