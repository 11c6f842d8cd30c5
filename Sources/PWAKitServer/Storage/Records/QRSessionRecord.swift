public import Foundation

/// A sign-in code a page shows: bound to the hash of the page's ephemeral key, approved by a person
/// on an enrolled device, redeemed once by the page that signs with that key.
public struct QRSessionRecord: Hashable, Sendable {
    /// The session id.
    public var id: String
    /// SHA-256 of the page's public key, base64url.
    public var keyHash: String
    /// The nonce the approval and the redemption sign.
    public var nonce: String
    /// The page's origin.
    public var origin: String
    /// `pending`, `approved`, `denied` or `redeemed`.
    public var status: String
    /// Who approved it.
    public var userId: String?
    /// The device that approved it.
    public var deviceId: String?
    /// The page's browser's address.
    public var requesterAddress: String
    /// The page's browser.
    public var requesterAgent: String
    /// When the code was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a pending session.
    public init(
        id: String, keyHash: String, nonce: String, origin: String, requesterAddress: String, requesterAgent: String,
        createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.keyHash = keyHash
        self.nonce = nonce
        self.origin = origin
        self.status = "pending"
        self.requesterAddress = requesterAddress
        self.requesterAgent = requesterAgent
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
