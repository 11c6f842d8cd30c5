/// The roles a user account can have.
public struct UserRole: RawRepresentable, Hashable, Sendable, Codable {
    /// The stable string form.
    public let rawValue: String
    /// Creates a role from its string form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A signed-in person using the host.
    public static let user = UserRole(rawValue: "user")
    /// May manage the catalog, publisher keys, credentials and publish releases.
    public static let admin = UserRole(rawValue: "admin")
}
