public import Foundation

/// A mini-app backend's server credential (the secret is stored only as a hash).
public struct AppCredentialRecord: Hashable, Sendable {
    /// The public id of the credential.
    public var credentialId: String
    /// The app the credential belongs to.
    public var appId: String
    /// Hex SHA-256 of the secret.
    public var secretHash: String
    /// When the credential was created.
    public var createdAt: Date
    /// When the credential was revoked; a revoked credential authenticates nothing.
    public var revokedAt: Date?

    /// Creates a record.
    public init(credentialId: String, appId: String, secretHash: String, createdAt: Date, revokedAt: Date? = nil) {
        self.credentialId = credentialId
        self.appId = appId
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
