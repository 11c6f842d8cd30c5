/// The body of `POST /v1/auth/register`.
public struct RegisterRequest: Codable, Hashable, Sendable {
    /// The account's email address.
    public var email: String
    /// The password, 10 to 1024 bytes.
    public var password: String
    /// The name shown to mini-apps; the email's local part when absent.
    public var displayName: String?

    /// Creates a registration.
    public init(email: String, password: String, displayName: String? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
    }
}

/// The answer to every well-formed registration, whether or not the email already had an account.
public struct RegistrationResponse: Codable, Hashable, Sendable {
    /// Always `accepted`.
    public var status = "accepted"
    /// What to do next.
    public var message = "sign in with this email address and password"

    /// The one answer.
    public init() {}
}

/// The body of `POST /v1/auth/login`.
public struct LoginRequest: Codable, Hashable, Sendable {
    /// The account's email address.
    public var email: String
    /// The password.
    public var password: String

    /// Creates a sign-in.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// The body of `POST /v1/auth/refresh` and `POST /v1/auth/logout`.
public struct RefreshRequest: Codable, Hashable, Sendable {
    /// The refresh token to rotate (or, for logout, whose session to end).
    public var refreshToken: String

    /// Wraps a refresh token.
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// A user as the server shows it (`GET /v1/me`, the `user` of a token pair).
public struct UserResponse: Codable, Hashable, Sendable {
    /// The stable user id.
    public var id: String
    /// The email address (not yet verified by the platform).
    public var email: String
    /// The name shown to mini-apps.
    public var displayName: String
    /// `user` or `admin`.
    public var role: String

    /// Creates a user.
    public init(id: String, email: String, displayName: String, role: String) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.role = role
    }
}

/// The answer to a sign-in or a refresh: a short-lived access token and a single-use refresh token.
public struct TokenPairResponse: Codable, Hashable, Sendable {
    /// The bearer token for API calls.
    public var accessToken: String
    /// The single-use token that buys the next pair.
    public var refreshToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Seconds until ``accessToken`` expires.
    public var expiresIn: Int
    /// Who signed in.
    public var user: UserResponse

    /// Creates a token pair.
    public init(accessToken: String, refreshToken: String, tokenType: String, expiresIn: Int, user: UserResponse) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.user = user
    }
}
