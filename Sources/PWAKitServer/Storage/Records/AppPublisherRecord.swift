public import Foundation

/// A user's right to publish one app's releases (and to upload the blobs they need) without
/// being an administrator.
public struct AppPublisherRecord: Hashable, Sendable {
    /// The app.
    public var appId: String
    /// The user who may publish it.
    public var userId: String
    /// The user's email, for listings.
    public var email: String
    /// When the right was granted.
    public var grantedAt: Date

    /// Creates a record.
    public init(appId: String, userId: String, email: String, grantedAt: Date) {
        self.appId = appId
        self.userId = userId
        self.email = email
        self.grantedAt = grantedAt
    }
}
