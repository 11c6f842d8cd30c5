public import Foundation

/// A device that receives push notifications for a user.
public struct DeviceRecord: Hashable, Sendable {
    /// The push token (unique: a token registered by another user moves to the new one).
    public var token: String
    /// The user it belongs to.
    public var userId: String
    /// `apns` or `local`.
    public var platform: String
    /// `production` or `sandbox`.
    public var environment: String
    /// When it was last registered.
    public var updatedAt: Date

    /// Creates a record.
    public init(token: String, userId: String, platform: String, environment: String, updatedAt: Date) {
        self.token = token
        self.userId = userId
        self.platform = platform
        self.environment = environment
        self.updatedAt = updatedAt
    }
}
