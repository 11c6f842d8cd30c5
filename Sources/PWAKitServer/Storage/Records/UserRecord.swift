public import Foundation

/// A stored user account.
public struct UserRecord: Hashable, Sendable {
    /// The user's opaque id.
    public var id: String
    /// The normalised (trimmed, lowercased) email address; unique.
    public var email: String
    /// The name shown to others.
    public var displayName: String
    /// The encoded password hash (see `PasswordHasher`).
    public var passwordHash: String
    /// What the account may do.
    public var role: UserRole
    /// When the account was created.
    public var createdAt: Date

    /// Creates a record.
    public init(id: String, email: String, displayName: String, passwordHash: String, role: UserRole, createdAt: Date) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.role = role
        self.createdAt = createdAt
    }
}
