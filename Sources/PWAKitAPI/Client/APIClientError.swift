import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call to the platform server that did not succeed: the server's own error (its stable code,
/// sentence and field) or a failure to reach it.
public struct APIClientError: Error, Sendable, CustomStringConvertible {
    /// A stable code: the server's codes pass through unchanged (`invalid_credentials`,
    /// `refresh_token_reused`, …); the client adds its own below.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        /// Wraps a code string (the server's codes arrive this way).
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The server could not be reached, or the connection failed before an answer.
        public static let network = Code("network")
        /// No answer within the request's timeout.
        public static let timeout = Code("timeout")
        /// The answer was not what the endpoint promises (not JSON, missing fields).
        public static let badResponse = Code("bad_response")
        /// The server answered an error without the project's error body.
        public static let httpStatus = Code("http_status")
        /// A call that needs a signed-in account was made without one.
        public static let notSignedIn = Code("not_signed_in")
        /// The account's session ended on the server (refresh refused); sign in again.
        public static let sessionExpired = Code("session_expired")
        /// The server's: the access token is missing, invalid or expired.
        public static let unauthorized = Code("unauthorized")
        /// The server's: the refresh token was already used; its whole family is revoked.
        public static let refreshTokenReused = Code("refresh_token_reused")
        /// The server's: the refresh token is unknown, expired or revoked.
        public static let invalidRefreshToken = Code("invalid_refresh_token")
        /// The server's: the resource does not exist.
        public static let notFound = Code("not_found")
    }

    /// The stable code.
    public let code: Code
    /// A sentence a person understands.
    public let message: String
    /// The request field at fault, when the server named one.
    public let field: String?
    /// The HTTP status, when an answer arrived.
    public let status: Int?
    /// The error underneath (a `URLError`, a `DecodingError`), when there is one.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, field: String? = nil, status: Int? = nil, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.status = status
        self.underlying = underlying
    }

    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }

    /// Whether the call may be tried again as it is: no answer arrived, or the server said it is
    /// overloaded or briefly unavailable.
    public var isTransient: Bool {
        switch code {
        case .network, .timeout: return true
        default: return status.map { [429, 502, 503, 504].contains($0) } ?? false
        }
    }

    /// Wraps a failure to get any answer from `url`.
    static func transport(_ error: any Error, url: URL) -> APIClientError {
        let host = url.host ?? "the server"
        if let urlError = error as? URLError, urlError.code == .timedOut {
            return APIClientError(.timeout, "\(host) did not answer in time", underlying: urlError)
        }
        let reason = (error as? URLError).map { Self.sentence(for: $0.code) } ?? "the connection failed"
        return APIClientError(.network, "cannot reach \(host): \(reason)", underlying: error)
    }

    private static func sentence(for code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "nothing accepts connections there (is the server running?)"
        case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
        case .notConnectedToInternet: return "this device is offline"
        case .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return "the TLS connection failed"
        default: return "the connection failed"
        }
    }
}
