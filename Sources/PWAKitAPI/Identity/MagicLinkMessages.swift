/// The body of `POST /v1/auth/magic-link`: email me a sign-in link, for the device that holds the
/// verifier of this challenge.
public struct MagicLinkRequest: Codable, Hashable, Sendable {
    /// The account's email address.
    public var email: String
    /// base64url(SHA-256(verifier)), 43 characters (PKCE, RFC 7636).
    public var codeChallenge: String
    /// Always `S256`.
    public var codeChallengeMethod: String

    /// Creates a request.
    public init(email: String, codeChallenge: String, codeChallengeMethod: String = "S256") {
        self.email = email
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
    }
}

/// The one answer to every well-formed link request, whether or not the address has an account.
public struct MagicLinkRequestedResponse: Codable, Hashable, Sendable {
    /// Always `accepted`.
    public var status = "accepted"
    /// What happens next.
    public var message = "if an account has this address, a sign-in link is on its way"

    /// The one answer.
    public init() {}
}

/// The body of `POST /v1/auth/magic-link/token`: the link's token and the verifier only the device
/// that asked holds.
public struct MagicLinkTokenRequest: Codable, Hashable, Sendable {
    /// The token the link carries.
    public var token: String
    /// The PKCE verifier: 43 to 128 characters of A-Z a-z 0-9 - . _ ~.
    public var codeVerifier: String

    /// Creates an exchange.
    public init(token: String, codeVerifier: String) {
        self.token = token
        self.codeVerifier = codeVerifier
    }
}
