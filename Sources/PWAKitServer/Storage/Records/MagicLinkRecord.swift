public import Foundation

/// A sign-in link sent by email: only the hash of its token is stored, with the PKCE challenge of the
/// device that asked.
public struct MagicLinkRecord: Hashable, Sendable {
    /// SHA-256 (hex) of the link's token.
    public var tokenHash: String
    /// The user it signs in.
    public var userId: String
    /// base64url(SHA-256(verifier)).
    public var challenge: String
    /// When it was sent.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date
    /// When it was used.
    public var usedAt: Date?
    /// Exchanges tried with a wrong verifier.
    public var failures: Int

    /// Creates an unused link.
    public init(tokenHash: String, userId: String, challenge: String, createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.userId = userId
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.failures = 0
    }
}
