import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import PWAKitServer

/// A small signed release built in memory: files, manifest, signature.
struct ReleaseFixture: Sendable {
    let files: [String: [UInt8]]
    let manifest: ReleaseManifest
    let signed: SignedRelease
    let key: SigningKey

    static func make(
        appId: String, version: String, channel: String = "stable", key: SigningKey,
        files: [String: [UInt8]] = ["index.html": Array("<h1>hi</h1>".utf8), "app.js": Array("console.log(1)".utf8)]
    ) throws -> ReleaseFixture {
        let entries = files.map { path, bytes in
            ManifestFile(path: path, sha256: SHA256.hex(of: bytes), size: bytes.count, contentType: ContentTypes.forPath(path))
        }
        let manifest = ReleaseManifest(appId: appId, version: version, channel: channel, entry: "index.html", files: entries)
        return ReleaseFixture(files: files, manifest: manifest, signed: try SignedRelease.sign(manifest, with: key), key: key)
    }

    var bundleHash: String { (try? signed.bundleHash()) ?? "" }

    func publishBody(rollout: Int? = nil, manifest: String? = nil, signature: String? = nil, keyId: String? = nil) -> [String:
        Any]
    {
        var body: [String: Any] = [
            "manifest": manifest ?? signed.manifest, "keyId": keyId ?? signed.keyId, "signature": signature ?? signed.signature,
        ]
        if let rollout { body["rolloutPercent"] = rollout }
        return body
    }
}

extension TestClientProtocol {
    /// Creates an app with a trusted publisher key; returns the key.
    @discardableResult
    func createApp(_ appId: String, admin: String, channels: [String] = ["stable", "beta"], key: SigningKey = .generate())
        async throws -> SigningKey
    {
        let created = try await send(
            .post, "/v1/apps", json: ["id": appId, "name": "App \(appId)", "channels": channels], token: admin)
        guard created.status == .created else { throw HarnessError("create app: \(created.status) \(created.text)") }
        let added = try await send(.post, "/v1/apps/\(appId)/keys", json: ["publicKey": key.verifyingKey.base64], token: admin)
        guard added.status == .created else { throw HarnessError("add key: \(added.status) \(added.text)") }
        return key
    }

    func uploadBlobs(_ fixture: ReleaseFixture, admin: String) async throws {
        for bytes in fixture.files.values {
            let response = try await sendBytes(
                .put, "/v1/blobs/\(SHA256.hex(of: bytes))", body: bytes, token: admin,
                headers: [.contentType: "application/octet-stream"])
            guard response.status == .created || response.status == .ok else {
                throw HarnessError("upload: \(response.status) \(response.text)")
            }
        }
    }

    /// Uploads the blobs and publishes; returns the publish response.
    func publish(_ fixture: ReleaseFixture, admin: String, rollout: Int? = nil) async throws -> TestResponse {
        try await uploadBlobs(fixture, admin: admin)
        return try await send(
            .post, "/v1/apps/\(fixture.manifest.appId)/releases", json: fixture.publishBody(rollout: rollout), token: admin)
    }
}
