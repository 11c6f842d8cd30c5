public import Foundation

/// The body of `POST /v1/launch/codes`.
public struct LaunchCodeRequest: Codable, Hashable, Sendable {
    /// The mini-app being launched.
    public var appId: String
    /// The bundle hash of the release the host launched.
    public var bundleHash: String

    /// Creates a request.
    public init(appId: String, bundleHash: String) {
        self.appId = appId
        self.bundleHash = bundleHash
    }
}

/// The answer to `POST /v1/launch/codes`: a single-use code and an offline-verifiable launch token.
public struct LaunchCodeResponse: Codable, Hashable, Sendable {
    /// The single-use code a mini-app's backend exchanges.
    public var code: String
    /// When the code and the token expire.
    public var expiresAt: Date
    /// An Ed25519-signed JWT with the same binding.
    public var launchToken: String

    /// Creates an answer.
    public init(code: String, expiresAt: Date, launchToken: String) {
        self.code = code
        self.expiresAt = expiresAt
        self.launchToken = launchToken
    }
}

/// The body of `POST /v1/launch/exchange`.
public struct LaunchExchangeRequest: Codable, Hashable, Sendable {
    /// The code the mini-app received.
    public var code: String

    /// Wraps a code.
    public init(code: String) { self.code = code }
}

/// The answer to `POST /v1/launch/exchange`: who the code was issued for.
public struct LaunchExchangeResponse: Codable, Hashable, Sendable {
    /// The user.
    public var user: LaunchUser
    /// The app the code was issued for.
    public var appId: String
    /// The bundle hash the host launched.
    public var bundleHash: String

    /// Creates an answer.
    public init(user: LaunchUser, appId: String, bundleHash: String) {
        self.user = user
        self.appId = appId
        self.bundleHash = bundleHash
    }

    /// The user a launch code was issued for.
    public struct LaunchUser: Codable, Hashable, Sendable {
        /// The stable user id.
        public var id: String
        /// The email address.
        public var email: String
        /// Whether the platform verified the email address: always false until it does.
        public var emailVerified: Bool
        /// The name shown to mini-apps.
        public var displayName: String

        /// Creates a user.
        public init(id: String, email: String, emailVerified: Bool = false, displayName: String) {
            self.id = id
            self.email = email
            self.emailVerified = emailVerified
            self.displayName = displayName
        }
    }
}
