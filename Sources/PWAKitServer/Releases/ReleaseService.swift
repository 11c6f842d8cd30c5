import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles

/// Accepts signed releases and picks the release a given user should run.
struct ReleaseService: Sendable {
    let storage: any ServerStorage
    let blobs: any BlobStore
    let catalog: CatalogService
    let environment: ServerEnvironment

    /// Verifies the signature with the app's publisher keys, every blob's presence, size and hash,
    /// and that the version moves the channel forward; then stores the exact manifest bytes.
    func publish(appId: String, _ request: PublishReleaseRequest) async throws -> ReleaseRecord {
        let app = try await catalog.app(appId)
        let rollout = request.rolloutPercent ?? 100
        guard (0...100).contains(rollout) else { throw APIError.invalid("rolloutPercent", "must be between 0 and 100") }
        let envelope = SignedRelease(manifest: request.manifest, keyId: request.keyId, signature: request.signature)
        let keys = try await storage.publisherKeys(appId: appId)
        if let named = keys.first(where: { $0.keyId == request.keyId }), let revokedAt = named.revokedAt {
            throw APIError(
                .unprocessableContent, .keyRevoked,
                "key \(named.keyId) was revoked on \(revokedAt.formatted(.iso8601)); sign the release with a key the app still trusts",
                field: "keyId")
        }
        let trusted = keys.filter { $0.revokedAt == nil }.compactMap { try? VerifyingKey(base64: $0.publicKey) }
        let manifest: ReleaseManifest
        do {
            manifest = try envelope.verify(trustedKeys: trusted)
        } catch let error as BundleError {
            switch error.code {
            case .badSignature: throw APIError(.unprocessableContent, .badSignature, error.message, field: error.field)
            default:
                let field = error.field.map { $0 == "manifest" ? $0 : "manifest.\($0)" } ?? "manifest"
                throw APIError(.badRequest, .invalidManifest, error.message, field: field)
            }
        }
        guard manifest.appId == appId else {
            throw APIError(
                .badRequest, .invalidManifest, "the manifest is for \(manifest.appId), not \(appId)", field: "manifest.appId")
        }
        guard app.channels.contains(manifest.channel) else {
            throw APIError(
                .badRequest, .invalidManifest, "\(appId) has no channel \(manifest.channel)", field: "manifest.channel")
        }
        guard let version = SemanticVersion(manifest.version) else {
            throw APIError.invalid("manifest.version", "is not a version")
        }
        // NB: before the blobs, so a publisher learns at once that no upload can help; the insert below decides
        // for real (a release committed meanwhile by another publisher is caught there).
        if let newest = try await storage.newestVersionKey(appId: appId, channel: manifest.channel),
            newest >= version.orderingKey
        {
            throw versionNotNewer(manifest)
        }
        try await checkBlobs(of: manifest)
        let bytes = try envelope.manifestBytes()
        let record = ReleaseRecord(
            appId: appId, channel: manifest.channel, version: manifest.version, versionKey: version.orderingKey,
            bundleHash: SHA256.hex(of: bytes), manifest: bytes, keyId: envelope.keyId, signature: envelope.signature,
            rolloutPercent: rollout, createdAt: environment.now()
        )
        guard try await storage.insertReleaseMovingForward(record) else { throw versionNotNewer(manifest) }
        return record
    }

    private func versionNotNewer(_ manifest: ReleaseManifest) -> APIError {
        APIError(
            .conflict, .versionNotNewer,
            "version \(manifest.version) is not above the newest release on \(manifest.channel) (withdrawn ones count)",
            field: "manifest.version")
    }

    private func checkBlobs(of manifest: ReleaseManifest) async throws {
        var problems: [String] = []
        for file in manifest.files {
            guard let size = try await blobs.size(of: file.sha256) else {
                problems.append("\(file.path) (\(file.sha256)) is not uploaded")
                continue
            }
            if size != file.size {
                problems.append("\(file.path) is \(size) bytes, the manifest says \(file.size)")
            } else if try await !blobs.verify(hash: file.sha256) {
                problems.append("the stored bytes of \(file.path) no longer hash to \(file.sha256)")
            }
        }
        guard problems.isEmpty else {
            throw APIError(.conflict, .missingBlobs, problems.prefix(20).joined(separator: "; "), field: "manifest.files")
        }
    }

    /// The newest release of a channel whose rollout includes `userId`, unless the client already runs it or something newer.
    func latest(appId: String, channel: String, current: String?, userId: String) async throws -> LatestReleaseResponse {
        let app = try await catalog.app(appId)
        try Validation.channel(channel, field: "channel")
        guard app.channels.contains(channel) else { throw APIError.notFound("channel \(channel) of \(appId)") }
        var currentVersion: SemanticVersion?
        if let current {
            guard let parsed = SemanticVersion(current) else { throw APIError.invalid("current", "must be MAJOR.MINOR.PATCH") }
            currentVersion = parsed
        }
        let candidates = try await storage.releases(appId: appId, channel: channel)
        guard let chosen = candidates.first(where: { Self.inRollout(userId: userId, release: $0) }) else {
            throw APIError.notFound("a release on \(channel) of \(appId)")
        }
        if let currentVersion, chosen.versionKey <= currentVersion.orderingKey {
            return LatestReleaseResponse(upToDate: true, release: nil)
        }
        return LatestReleaseResponse(upToDate: false, release: ReleaseResponse(chosen))
    }

    /// A stable bucket in 0..<100 per (user, app, channel, version): raising a release's percentage only adds users.
    static func inRollout(userId: String, release: ReleaseRecord) -> Bool {
        RolloutBucket.includes(
            userId: userId, subject: "\(release.appId)|\(release.channel)|\(release.version)", percent: release.rolloutPercent)
    }

    func release(appId: String, bundleHash: String) async throws -> ReleaseRecord {
        _ = try await catalog.app(appId)
        try Validation.sha256(bundleHash, field: "bundleHash")
        guard let release = try await storage.release(appId: appId, bundleHash: bundleHash) else {
            throw APIError.notFound("release \(bundleHash) of \(appId)")
        }
        return release
    }

    func setRollout(appId: String, channel: String, version: String, percent: Int) async throws {
        _ = try await catalog.app(appId)
        try Validation.channel(channel, field: "channel")
        guard let parsed = SemanticVersion(version) else { throw APIError.invalid("version", "must be MAJOR.MINOR.PATCH") }
        guard (0...100).contains(percent) else { throw APIError.invalid("rolloutPercent", "must be between 0 and 100") }
        guard try await storage.setRollout(appId: appId, channel: channel, versionKey: parsed.orderingKey, percent: percent)
        else {
            throw APIError.notFound("release \(version) on \(channel) of \(appId)")
        }
    }
}
