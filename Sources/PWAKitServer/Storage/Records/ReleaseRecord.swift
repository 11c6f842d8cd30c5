public import Foundation

/// An accepted release: the exact signed manifest bytes and where they are published.
public struct ReleaseRecord: Hashable, Sendable {
    /// The app id.
    public var appId: String
    /// The channel.
    public var channel: String
    /// The semantic version.
    public var version: String
    /// The version's ordering key (`SemanticVersion.orderingKey`).
    public var versionKey: Int64
    /// Hex SHA-256 of the manifest bytes: the bundle hash.
    public var bundleHash: String
    /// The exact manifest bytes as signed.
    public var manifest: Data
    /// The id of the key that signed.
    public var keyId: String
    /// Base64 of the signature.
    public var signature: String
    /// The share of users (0–100) who receive this release.
    public var rolloutPercent: Int
    /// When the release was accepted.
    public var createdAt: Date

    /// Creates a record.
    public init(
        appId: String, channel: String, version: String, versionKey: Int64, bundleHash: String, manifest: Data, keyId: String,
        signature: String, rolloutPercent: Int, createdAt: Date
    ) {
        self.appId = appId
        self.channel = channel
        self.version = version
        self.versionKey = versionKey
        self.bundleHash = bundleHash
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
        self.rolloutPercent = rolloutPercent
        self.createdAt = createdAt
    }
}
