public import PWAKitAPI

/// Where the person's account stands, as the launcher shows it.
public enum AccountState: Sendable, Hashable {
    /// No account on this device.
    case signedOut
    /// A sign-in is on its way to the server.
    case signingIn
    /// Signed in (also offline, from the stored session).
    case signedIn(UserResponse)
    /// Signed in, but the session is locked until the person unlocks it.
    case locked(UserResponse)
    /// The server ended the session (revoked, or its refresh token was reused); the stored
    /// tokens are wiped and the person must sign in again.
    case expired

    /// The user, when signed in or locked.
    public var user: UserResponse? {
        switch self {
        case .signedIn(let user), .locked(let user): user
        default: nil
        }
    }
}
