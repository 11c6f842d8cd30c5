import Crypto
import Foundation
public import PWAKitBundles

/// The publisher keys this device accepts, pinned in its configuration: a release is trusted
/// only when signed by one of them. A key list fetched from the server proves nothing and is
/// never consulted.
public struct PublisherTrust: Sendable, Hashable {
    /// Keys every app may be signed with.
    public var keys: [VerifyingKey]
    /// Keys only the named app may be signed with.
    public var keysByApp: [String: [VerifyingKey]]

    /// Creates a trust list.
    public init(keys: [VerifyingKey] = [], keysByApp: [String: [VerifyingKey]] = [:]) {
        self.keys = keys
        self.keysByApp = keysByApp
    }

    /// The keys that may sign `appId`'s releases.
    public func keys(for appId: String) -> [VerifyingKey] { keys + (keysByApp[appId] ?? []) }

    /// Verifies an envelope for `appId`: the key is pinned, the signature holds over the exact
    /// manifest bytes, and the manifest is well formed and for that app.
    public func verify(_ envelope: SignedRelease, appId: String) throws -> VerifiedRelease {
        let trusted = keys(for: appId)
        guard trusted.contains(where: { $0.keyId == envelope.keyId }) else {
            throw MiniAppError(
                .untrustedKey, "the release is signed with key \(envelope.keyId), which this device does not pin for \(appId)",
                field: "keyId")
        }
        let manifest: ReleaseManifest
        do {
            manifest = try envelope.verify(trustedKeys: trusted)
        } catch let error as BundleError {
            if error.code == .badSignature {
                throw MiniAppError(.badSignature, error.message, field: error.field, underlying: error)
            }
            throw MiniAppError(.invalidManifest, error.message, field: error.field.map { "manifest.\($0)" }, underlying: error)
        }
        guard manifest.appId == appId else {
            throw MiniAppError(.invalidManifest, "the release is for \(manifest.appId), not \(appId)", field: "manifest.appId")
        }
        let bytes = try envelope.manifestBytes()
        return VerifiedRelease(envelope: envelope, manifest: manifest, bundleHash: SHA256.hex(of: bytes))
    }
}

/// A release whose signature and manifest were verified against the device's pinned keys.
public struct VerifiedRelease: Sendable, Hashable {
    /// The envelope exactly as received.
    public let envelope: SignedRelease
    /// The decoded manifest.
    public let manifest: ReleaseManifest
    /// Lowercase hex SHA-256 of the exact manifest bytes.
    public let bundleHash: String

    /// The parsed version.
    public var version: SemanticVersion? { SemanticVersion(manifest.version) }
}
