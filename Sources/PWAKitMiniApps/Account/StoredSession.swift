import Foundation
import PWAKitAPI

/// What the account keeps between launches, as one secret of the secure store: the refresh token
/// and who it belongs to. The access token is never stored.
struct StoredSession: Codable, Sendable, Hashable {
    /// The single-use token that buys the next token pair.
    var refreshToken: String
    /// Who is signed in.
    var user: UserResponse
    /// The server the session belongs to.
    var server: String
}

/// Who is signed in, kept beside the session but outside any biometric gate: what a locked
/// launcher shows ("Unlock as Ada") before the session itself is released.
struct StoredProfile: Codable, Sendable, Hashable {
    var user: UserResponse
    var server: String
}

/// What can still be read of a kept session that no longer decodes as a whole: its refresh token
/// (to revoke it) and the server it belongs to.
struct LeftoverToken: Decodable, Sendable {
    var refreshToken: String
    var server: String?
}
