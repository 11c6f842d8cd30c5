import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import PWAKitServer
import Testing

@Suite("Release endpoints")
struct ReleaseEndpointTests {
    @Test(
        "publish verifies signature and blobs, stores exact bytes, moves channels forward", arguments: Transport.allCases,
        StorageEngine.available)
    func publishAndDeliver(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "quiz-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let v1 = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)

            // Blobs missing: refused, naming the files.
            let early = try await client.send(.post, "/v1/apps/\(appId)/releases", json: v1.publishBody(), token: admin)
            #expect(early.status == .conflict)
            #expect(early.json.errorCode == "missing_blobs")

            let published = try await client.publish(v1, admin: admin)
            #expect(published.status == .created)
            #expect(published.json["bundleHash"]?.string == v1.bundleHash)

            let user = try await client.register()
            let latest = try await client.send(.get, "/v1/apps/\(appId)/releases/latest?channel=stable", token: user.access)
            #expect(latest.status == .ok)
            #expect(latest.json["upToDate"]?.bool == false)
            let served = try #require(latest.json["release"]?["manifest"]?.string)
            #expect(served == v1.signed.manifest)
            #expect(latest.json["release"]?["blobBaseURL"]?.string == "/v1/blobs/")

            let raw = try await client.send(.get, "/v1/apps/\(appId)/releases/\(v1.bundleHash)/manifest", token: user.access)
            #expect(raw.bytes == Array(try v1.signed.manifestBytes()))
            #expect(raw.headers[HTTPField.Name("PWAKit-Signature")!] == v1.signed.signature)
            let verified = try SignedRelease(
                manifest: Data(raw.bytes).base64EncodedString(), keyId: v1.signed.keyId, signature: v1.signed.signature
            )
            .verify(trustedKeys: [key.verifyingKey])
            #expect(verified.version == "1.0.0")

            let upToDate = try await client.send(
                .get, "/v1/apps/\(appId)/releases/latest?channel=stable&current=1.0.0", token: user.access)
            #expect(upToDate.json["upToDate"]?.bool == true)
            let newerClient = try await client.send(.get, "/v1/apps/\(appId)/releases/latest?current=2.0.0", token: user.access)
            #expect(newerClient.json["upToDate"]?.bool == true)

            // Anti-rollback: the same or a lower version is refused on that channel, allowed on another.
            let same = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key, files: ["index.html": [1]]), admin: admin)
            #expect(same.status == .conflict)
            #expect(same.json.errorCode == "version_not_newer")
            #expect(same.json.errorField == "manifest.version")
            let older = try await client.publish(try ReleaseFixture.make(appId: appId, version: "0.9.9", key: key), admin: admin)
            #expect(older.json.errorCode == "version_not_newer")
            // The version is judged before the blobs: an older release with files the server lacks is refused as
            // not newer, not as missing blobs (no upload could help it).
            let olderUnuploaded = try ReleaseFixture.make(
                appId: appId, version: "0.9.8", key: key, files: ["index.html": [7, 7]])
            let judged = try await client.send(
                .post, "/v1/apps/\(appId)/releases", json: olderUnuploaded.publishBody(), token: admin)
            #expect(judged.json.errorCode == "version_not_newer")
            let beta = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "0.1.0", channel: "beta", key: key), admin: admin)
            #expect(beta.status == .created)
            let v2 = try await client.publish(
                try ReleaseFixture.make(appId: appId, version: "1.10.0", key: key, files: ["index.html": [2]]), admin: admin)
            #expect(v2.status == .created)
            let newest = try await client.send(.get, "/v1/apps/\(appId)/releases/latest?current=1.0.0", token: user.access)
            let newestManifest = try ManifestCoding.decode(
                Data(base64Encoded: try #require(newest.json["release"]?["manifest"]?.string))!)
            #expect(newestManifest.version == "1.10.0")
        }
    }

    @Test(
        "tampered manifests, foreign keys and wrong app ids are refused", arguments: Transport.allCases, StorageEngine.available)
    func tampering(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "safe-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            try await client.uploadBlobs(fixture, admin: admin)

            var bytes = try fixture.signed.manifestBytes()
            bytes[bytes.count / 2] ^= 0x01
            let flipped = try await client.send(
                .post, "/v1/apps/\(appId)/releases",
                json: fixture.publishBody(manifest: bytes.base64EncodedString()), token: admin)
            #expect(flipped.status == .unprocessableContent)
            #expect(flipped.json.errorCode == "bad_signature")

            let stranger = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: .generate())
            let untrusted = try await client.send(.post, "/v1/apps/\(appId)/releases", json: stranger.publishBody(), token: admin)
            #expect(untrusted.json.errorCode == "bad_signature")
            #expect(untrusted.json.errorField == "keyId")

            let otherApp = try ReleaseFixture.make(appId: "other-app", version: "1.0.0", key: key)
            let wrongApp = try await client.send(.post, "/v1/apps/\(appId)/releases", json: otherApp.publishBody(), token: admin)
            #expect(wrongApp.json.errorCode == "invalid_manifest")
            #expect(wrongApp.json.errorField == "manifest.appId")

            let noChannel = try ReleaseFixture.make(appId: appId, version: "1.0.0", channel: "nightly", key: key)
            let unknownChannel = try await client.send(
                .post, "/v1/apps/\(appId)/releases", json: noChannel.publishBody(), token: admin)
            #expect(unknownChannel.json.errorField == "manifest.channel")

            let signedGarbage = try SignedRelease.sign(manifestBytes: Data(#"{"format":1,"appId":5}"#.utf8), with: key)
            let garbage = try await client.send(
                .post, "/v1/apps/\(appId)/releases",
                json: ["manifest": signedGarbage.manifest, "keyId": signedGarbage.keyId, "signature": signedGarbage.signature],
                token: admin)
            #expect(garbage.json.errorCode == "invalid_manifest")
            #expect(garbage.json.errorField == "manifest.appId")

            let notBase64 = try await client.send(
                .post, "/v1/apps/\(appId)/releases", json: fixture.publishBody(manifest: "***"), token: admin)
            #expect(notBase64.json.errorField == "manifest")
            let badRollout = try await client.send(
                .post, "/v1/apps/\(appId)/releases", json: fixture.publishBody(rollout: 101), token: admin)
            #expect(badRollout.json.errorField == "rolloutPercent")

            // A blob altered on disk after upload is caught at publish time.
            let tamperedBlob = harness.blobRoot.appendingPathComponent(String(fixture.manifest.files[0].sha256.prefix(2)))
                .appendingPathComponent(String(fixture.manifest.files[0].sha256.dropFirst(2).prefix(2)))
                .appendingPathComponent(fixture.manifest.files[0].sha256)
            var onDisk = try Data(contentsOf: tamperedBlob)
            onDisk[0] ^= 0xFF
            try onDisk.write(to: tamperedBlob)
            let caught = try await client.send(.post, "/v1/apps/\(appId)/releases", json: fixture.publishBody(), token: admin)
            #expect(caught.json.errorCode == "missing_blobs")

            let user = try await client.register()
            let forbidden = try await client.send(
                .post, "/v1/apps/\(appId)/releases", json: fixture.publishBody(), token: user.access)
            #expect(forbidden.status == .forbidden)
        }
    }

    @Test(
        "percentage rollout: a stable share of users, widened by the admin", arguments: Transport.allCases,
        StorageEngine.available)
    func rollout(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "roll-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            #expect(
                try await client.publish(try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key), admin: admin).status
                    == .created)
            let v2 = try ReleaseFixture.make(appId: appId, version: "2.0.0", key: key, files: ["index.html": [2]])
            #expect(try await client.publish(v2, admin: admin, rollout: 30).status == .created)

            var users: [String] = []
            for _ in 0..<40 { users.append(try await client.register().access) }
            func versions() async throws -> [String] {
                var result: [String] = []
                for token in users {
                    let latest = try await client.send(.get, "/v1/apps/\(appId)/releases/latest", token: token)
                    let manifest = try ManifestCoding.decode(
                        Data(base64Encoded: latest.json["release"]?["manifest"]?.string ?? "")!)
                    result.append(manifest.version)
                }
                return result
            }
            let first = try await versions()
            let onV2 = first.filter { $0 == "2.0.0" }.count
            #expect(onV2 > 0 && onV2 < 40, "30% of 40 users should be split, got \(onV2)")
            #expect(try await versions() == first, "a user's bucket is stable")

            let widen = try await client.send(
                .put, "/v1/apps/\(appId)/channels/stable/releases/2.0.0/rollout", json: ["rolloutPercent": 100], token: admin)
            #expect(widen.status == .noContent)
            #expect(try await versions().allSatisfy { $0 == "2.0.0" })
            let missing = try await client.send(
                .put, "/v1/apps/\(appId)/channels/stable/releases/9.9.9/rollout", json: ["rolloutPercent": 5], token: admin)
            #expect(missing.status == .notFound)
            let badVersion = try await client.send(
                .put, "/v1/apps/\(appId)/channels/stable/releases/v1/rollout", json: ["rolloutPercent": 5], token: admin)
            #expect(badVersion.json.errorField == "version")
            let badQuery = try await client.send(.get, "/v1/apps/\(appId)/releases/latest?current=1.x", token: users[0])
            #expect(badQuery.json.errorField == "current")
            let badChannel = try await client.send(.get, "/v1/apps/\(appId)/releases/latest?channel=nope", token: users[0])
            #expect(badChannel.status == .notFound)
        }
    }
}
