public import Foundation

/// A mobile-authentication transaction: a website asked a user to confirm a sign-in on their device.
public struct IdentityTransactionRecord: Hashable, Sendable {
    /// The transaction id.
    public var id: String
    /// The user asked.
    public var userId: String
    /// The app whose backend asked.
    public var appId: String
    /// What the person confirms.
    public var message: String
    /// Text the approval signs too.
    public var data: String?
    /// The requesting browser's address.
    public var requesterAddress: String
    /// The requesting browser's user agent.
    public var requesterAgent: String
    /// The number the requesting screen shows.
    public var number: Int
    /// The nonce an approval signs.
    public var nonce: String
    /// `pending`, `approved`, `denied`, `rejected` or `expired`.
    public var status: String
    /// Why it was denied or rejected.
    public var reason: String?
    /// Whether its one answer has been taken.
    public var answered: Bool
    /// The authenticator that approved it.
    public var authenticator: String?
    /// The server's signed statement of an approval (a JWT).
    public var assertion: String?
    /// The device that answered.
    public var deviceId: String?
    /// When it was asked.
    public var createdAt: Date
    /// When it expires unanswered.
    public var expiresAt: Date
    /// When it was answered.
    public var decidedAt: Date?

    /// Creates a pending transaction.
    public init(
        id: String, userId: String, appId: String, message: String, data: String?, requesterAddress: String,
        requesterAgent: String, number: Int, nonce: String, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.appId = appId
        self.message = message
        self.data = data
        self.requesterAddress = requesterAddress
        self.requesterAgent = requesterAgent
        self.number = number
        self.nonce = nonce
        self.status = "pending"
        self.answered = false
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
