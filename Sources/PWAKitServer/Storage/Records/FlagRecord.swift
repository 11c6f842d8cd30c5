public import Foundation

/// One feature flag's remote value, for every app (`appId` empty) or for one.
public struct FlagRecord: Hashable, Sendable {
    /// The app it is for; empty for every app.
    public var appId: String
    /// The flag's key.
    public var key: String
    /// The value as JSON (a string, a number or a boolean).
    public var value: String
    /// The share of users, 0–100, who get it.
    public var rolloutPercent: Int
    /// When it was last set.
    public var updatedAt: Date

    /// Creates a record.
    public init(appId: String, key: String, value: String, rolloutPercent: Int, updatedAt: Date) {
        self.appId = appId
        self.key = key
        self.value = value
        self.rolloutPercent = rolloutPercent
        self.updatedAt = updatedAt
    }
}
