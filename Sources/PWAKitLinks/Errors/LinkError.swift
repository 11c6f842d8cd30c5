public import PWAKitErrors

/// Why a URL cannot be stored or fetched: a stable code, a sentence, the part at fault.
public struct LinkError: Error, Sendable, CustomStringConvertible {
    /// A stable code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The URL is longer than the limit.
        public static let urlTooLong = Code("url_too_long")
        /// The text is not an absolute `http` or `https` URL: no scheme, no host, a control character.
        public static let invalidURL = Code("invalid_url")
        /// The scheme is not `http` or `https`.
        public static let unsupportedScheme = Code("unsupported_scheme")
        /// The URL carries a user name or password (`https://user:pass@host/`).
        public static let credentialsInURL = Code("credentials_in_url")
        /// The host is not a DNS name or an IP address: empty, non-ASCII (write it in punycode), a
        /// numeric form other than dotted-decimal IPv4, or an IPv6 zone.
        public static let invalidHost = Code("invalid_host")
        /// The port is not a number from 1 to 65535.
        public static let invalidPort = Code("invalid_port")
        /// The tracking-rule list cannot be read (a bad regular expression or JSON).
        public static let invalidRules = Code("invalid_rules")
    }

    /// The stable code.
    public let code: Code
    /// A sentence a developer or a person can act on.
    public let message: String
    /// The part at fault (`url`, `scheme`, `host`, `port`, `rules.global[3]`).
    public let field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = "url") {
        self.code = code
        self.message = message
        self.field = field
    }

    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
}

extension LinkError: CodedError {
    /// The code's string.
    public var codeName: String { code.rawValue }
    /// The part at fault.
    public var fieldPath: String? { field }
}
