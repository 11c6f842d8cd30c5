public import Foundation

/// The answer to `DELETE /v1/apps/{appId}/keys/{keyId}`.
public struct RevokePublisherKeyResponse: Codable, Hashable, Sendable {
    /// The key, now revoked.
    public var key: PublisherKeyResponse
    /// How many releases signed by it were withdrawn (only with `withdrawReleases=true`; 0 otherwise).
    public var withdrawnReleases: Int

    /// Creates an answer.
    public init(key: PublisherKeyResponse, withdrawnReleases: Int) {
        self.key = key
        self.withdrawnReleases = withdrawnReleases
    }
}

/// A backend credential of an app, without its secret.
public struct CredentialInfoResponse: Codable, Hashable, Sendable {
    /// The app the credential belongs to.
    public var appId: String
    /// The credential id (the Basic user name).
    public var credentialId: String
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?

    /// Creates an entry.
    public init(appId: String, credentialId: String, createdAt: Date, revokedAt: Date? = nil) {
        self.appId = appId
        self.credentialId = credentialId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// The answer to `GET /v1/apps/{appId}/credentials`.
public struct CredentialListResponse: Codable, Hashable, Sendable {
    /// The app's credentials, oldest first, revoked ones included.
    public var credentials: [CredentialInfoResponse]

    /// Wraps a list.
    public init(credentials: [CredentialInfoResponse]) { self.credentials = credentials }
}

/// The body of `POST /v1/apps/{appId}/publishers`.
public struct GrantPublisherRequest: Codable, Hashable, Sendable {
    /// The email of the account that may publish the app.
    public var email: String

    /// Wraps an email.
    public init(email: String) { self.email = email }
}

/// A user who may publish an app.
public struct PublisherResponse: Codable, Hashable, Sendable {
    /// The app.
    public var appId: String
    /// The user's id.
    public var userId: String
    /// The user's email.
    public var email: String
    /// When the right was granted.
    public var grantedAt: Date

    /// Creates an entry.
    public init(appId: String, userId: String, email: String, grantedAt: Date) {
        self.appId = appId
        self.userId = userId
        self.email = email
        self.grantedAt = grantedAt
    }
}

/// The answer to `GET /v1/apps/{appId}/publishers`.
public struct PublisherListResponse: Codable, Hashable, Sendable {
    /// Who may publish the app besides administrators.
    public var publishers: [PublisherResponse]

    /// Wraps a list.
    public init(publishers: [PublisherResponse]) { self.publishers = publishers }
}
