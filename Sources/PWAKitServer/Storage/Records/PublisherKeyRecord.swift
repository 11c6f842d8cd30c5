public import Foundation

/// A publisher key trusted to sign an app's releases.
public struct PublisherKeyRecord: Hashable, Sendable {
    /// The app the key signs for.
    public var appId: String
    /// The key id.
    public var keyId: String
    /// Base64 of the raw Ed25519 public key.
    public var publicKey: String
    /// When the key was added.
    public var addedAt: Date
    /// When the key was revoked; a revoked key signs no new release.
    public var revokedAt: Date?

    /// Creates a record.
    public init(appId: String, keyId: String, publicKey: String, addedAt: Date, revokedAt: Date? = nil) {
        self.appId = appId
        self.keyId = keyId
        self.publicKey = publicKey
        self.addedAt = addedAt
        self.revokedAt = revokedAt
    }
}
