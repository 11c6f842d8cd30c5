public import PWAKitErrors

/// Why a server-side fetch of a shared link did not happen or did not finish.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    /// A stable code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The host, or an address it resolves to, is not public (loopback, private, link-local, …).
        public static let forbiddenAddress = Code("forbidden_address")
        /// The host name does not resolve.
        public static let unresolvable = Code("unresolvable")
        /// More redirects than allowed, or a redirect without a usable `Location`.
        public static let tooManyRedirects = Code("too_many_redirects")
        /// A redirect to a URL that cannot be fetched (another scheme, credentials, a bad host).
        public static let badRedirect = Code("bad_redirect")
        /// The connection or the whole fetch took longer than allowed.
        public static let timedOut = Code("timed_out")
        /// The connection failed or broke.
        public static let connectionFailed = Code("connection_failed")
        /// The answer was not HTTP/1.x.
        public static let badResponse = Code("bad_response")
    }

    /// The stable code.
    public let code: Code
    /// What happened.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// Whether trying again later could help (a timeout, a broken connection).
    public var isTransient: Bool { code == .timedOut || code == .connectionFailed || code == .unresolvable }
}

extension FetchError: CodedError {
    /// The code's string.
    public var codeName: String { code.rawValue }
}
