public import Foundation

/// The body of `POST /v1/identity/devices`: enrols this device for the signed-in user.
public struct EnrolDeviceRequest: Codable, Hashable, Sendable {
    /// A name the person recognises ("Ana's phone"), 1 to 100 characters.
    public var name: String
    /// The device key's Ed25519 public key, 32 bytes base64url.
    public var deviceKey: String
    /// The PIN-protected user key's Ed25519 public key, 32 bytes base64url.
    public var pinKey: String
    /// The device key's signature over ``IdentityStatement/enrolment(userId:deviceKey:pinKey:)``.
    public var deviceSignature: String
    /// The PIN key's signature over the same statement.
    public var pinSignature: String

    /// Creates an enrolment.
    public init(name: String, deviceKey: String, pinKey: String, deviceSignature: String, pinSignature: String) {
        self.name = name
        self.deviceKey = deviceKey
        self.pinKey = pinKey
        self.deviceSignature = deviceSignature
        self.pinSignature = pinSignature
    }
}

/// An enrolled device as the server shows it.
public struct EnrolledDeviceResponse: Codable, Hashable, Sendable {
    /// The device id, used in every proof the device makes.
    public var id: String
    /// The name given at enrolment.
    public var name: String
    /// When it was enrolled.
    public var createdAt: Date
    /// When it last made a verified request (to the minute: noted at most once a minute).
    public var lastUsedAt: Date?
    /// The authenticators it has: `pin` always, `biometric` when added.
    public var authenticators: [AuthenticatorKind]
    /// Wrong PINs it may still enter before it is deregistered.
    public var pinAttemptsLeft: Int
    /// Counts the PIN keys it has had (1 at enrolment, one more per change): a device that stopped
    /// in the middle of a change keeps both wrapped keys and asks this to know which is current.
    public var pinVersion: Int

    /// Creates a device description.
    public init(
        id: String, name: String, createdAt: Date, lastUsedAt: Date?, authenticators: [AuthenticatorKind], pinAttemptsLeft: Int,
        pinVersion: Int
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.authenticators = authenticators
        self.pinAttemptsLeft = pinAttemptsLeft
        self.pinVersion = pinVersion
    }
}

/// The body of `PUT /v1/identity/device/authenticators/{kind}`: a new key for an authenticator (a
/// changed PIN, an added biometric).
public struct AuthenticatorKeyRequest: Codable, Hashable, Sendable {
    /// The Ed25519 public key, 32 bytes base64url.
    public var publicKey: String
    /// Its signature over ``IdentityStatement/authenticatorKey(deviceId:kind:publicKey:)``.
    public var signature: String

    /// Creates a key change.
    public init(publicKey: String, signature: String) {
        self.publicKey = publicKey
        self.signature = signature
    }
}

/// The body of `POST /v1/identity/transactions`: a website's backend asks a user to confirm a sign-in.
public struct CreateTransactionRequest: Codable, Hashable, Sendable {
    /// The account's email address.
    public var email: String
    /// What the person is asked to confirm, shown on the device: 1 to 500 characters.
    public var message: String
    /// Optional text the approval signs too (a payment's details), at most 4,096 bytes.
    public var data: String?
    /// The IP address of the browser that asked, as the website saw it; the caller's own when absent.
    public var requesterAddress: String?
    /// The user agent of the browser that asked; the caller's own when absent.
    public var requesterAgent: String?

    /// Creates a request.
    public init(
        email: String, message: String, data: String? = nil, requesterAddress: String? = nil, requesterAgent: String? = nil
    ) {
        self.email = email
        self.message = message
        self.data = data
        self.requesterAddress = requesterAddress
        self.requesterAgent = requesterAgent
    }
}

/// The answer to a created transaction: what the requesting screen shows.
public struct CreatedTransactionResponse: Codable, Hashable, Sendable {
    /// The transaction id.
    public var id: String
    /// The number the requesting screen shows and the person types on the device (10 to 99).
    public var number: Int
    /// When it expires unanswered.
    public var expiresAt: Date

    /// Creates an answer.
    public init(id: String, number: Int, expiresAt: Date) {
        self.id = id
        self.number = number
        self.expiresAt = expiresAt
    }
}

/// A transaction's state, as its requester polls it.
public struct TransactionStatusResponse: Codable, Hashable, Sendable {
    /// The transaction id.
    public var id: String
    /// `pending`, `approved`, `denied`, `rejected` (a wrong number or proof) or `expired`.
    public var status: String
    /// Why it was denied or rejected: `denied`, `fraud_reported`, `number_mismatch`, `wrong_pin`, `bad_signature`.
    public var reason: String?
    /// The authenticator that approved it.
    public var authenticator: AuthenticatorKind?
    /// For an approval: the server's statement of it, a JWT (EdDSA, verifiable with the keys at
    /// `GET /v1/launch/keys`) whose claims are `iss`, `sub` (the user), `aud` (the asking app), `iat`,
    /// `txn` (this id), `nonce`, `decision`, `amr` (`["pin"]` or `["biometric"]`) and `ctx`
    /// (``IdentityStatement/contextHash(message:data:)``). The person's own signature never leaves
    /// the server: a PIN key's signature would let whoever also holds the device's stored key try
    /// PINs offline.
    public var assertion: String?
    /// The nonce the approval signs.
    public var nonce: String
    /// When it was answered.
    public var decidedAt: Date?
    /// When it expires (or expired) unanswered.
    public var expiresAt: Date

    /// Creates a status.
    public init(
        id: String, status: String, reason: String?, authenticator: AuthenticatorKind?, assertion: String?, nonce: String,
        decidedAt: Date?, expiresAt: Date
    ) {
        self.id = id
        self.status = status
        self.reason = reason
        self.authenticator = authenticator
        self.assertion = assertion
        self.nonce = nonce
        self.decidedAt = decidedAt
        self.expiresAt = expiresAt
    }
}

/// What the device shows the person about a pending transaction (never the number: that is on the
/// requesting screen, and the person types it).
public struct TransactionDetailsResponse: Codable, Hashable, Sendable {
    /// The transaction id.
    public var id: String
    /// The mini-app or website that asked.
    public var appId: String
    /// What the person is asked to confirm.
    public var message: String
    /// The text the approval signs too.
    public var data: String?
    /// The requesting browser's IP address.
    public var requesterAddress: String
    /// The requesting browser's user agent.
    public var requesterAgent: String
    /// The nonce the approval signs.
    public var nonce: String
    /// When it was asked.
    public var createdAt: Date
    /// When it expires unanswered.
    public var expiresAt: Date

    /// Creates details.
    public init(
        id: String, appId: String, message: String, data: String?, requesterAddress: String, requesterAgent: String,
        nonce: String, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.appId = appId
        self.message = message
        self.data = data
        self.requesterAddress = requesterAddress
        self.requesterAgent = requesterAgent
        self.nonce = nonce
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The transactions waiting for this device's answer (at most one: one pending request per user).
public struct PendingTransactionsResponse: Codable, Hashable, Sendable {
    /// Their ids and expiries.
    public var transactions: [PendingTransaction]

    /// One waiting transaction.
    public struct PendingTransaction: Codable, Hashable, Sendable {
        /// The transaction id.
        public var id: String
        /// When it expires unanswered.
        public var expiresAt: Date

        /// Creates an entry.
        public init(id: String, expiresAt: Date) {
            self.id = id
            self.expiresAt = expiresAt
        }
    }

    /// Creates a list.
    public init(transactions: [PendingTransaction]) { self.transactions = transactions }
}

/// The body of `POST /v1/identity/device/transactions/{id}/answer`.
public struct AnswerTransactionRequest: Codable, Hashable, Sendable {
    /// Approve or deny.
    public var decision: TransactionDecision
    /// The number typed from the requesting screen (approvals; one try).
    public var number: Int?
    /// The authenticator that signed (approvals).
    public var authenticator: AuthenticatorKind?
    /// The authenticator's signature over the approval statement, base64url (approvals).
    public var signature: String?
    /// A denial that says "this wasn't me": the server records it and mutes requests for the user a while.
    public var notMe: Bool?

    /// Creates an answer.
    public init(
        decision: TransactionDecision, number: Int? = nil, authenticator: AuthenticatorKind? = nil, signature: String? = nil,
        notMe: Bool? = nil
    ) {
        self.decision = decision
        self.number = number
        self.authenticator = authenticator
        self.signature = signature
        self.notMe = notMe
    }
}
