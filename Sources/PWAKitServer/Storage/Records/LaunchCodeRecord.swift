public import Foundation

/// A single-use launch code, stored by the hash of the code.
public struct LaunchCodeRecord: Hashable, Sendable {
    /// Hex SHA-256 of the code.
    public var codeHash: String
    /// The signed-in user the code stands for.
    public var userId: String
    /// The mini-app the code is for.
    public var appId: String
    /// The bundle hash of the release being launched.
    public var bundleHash: String
    /// When the code stops being redeemable.
    public var expiresAt: Date

    /// Creates a record.
    public init(codeHash: String, userId: String, appId: String, bundleHash: String, expiresAt: Date) {
        self.codeHash = codeHash
        self.userId = userId
        self.appId = appId
        self.bundleHash = bundleHash
        self.expiresAt = expiresAt
    }
}
