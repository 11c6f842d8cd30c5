/// Why a URL is not a route, a route cannot be written as a URL, or a configuration or push
/// payload is refused: a stable code, a sentence, the part at fault and the cause.
public struct RoutingError: Error, Sendable, CustomStringConvertible {
    /// A stable code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The URL is longer than ``RouteLimits/maximumURLLength``.
        public static let urlTooLong = Code("url_too_long")
        /// The text is not a URL: no scheme, a space or control character, or an authority that cannot be read.
        public static let malformedURL = Code("malformed_url")
        /// A `%` not followed by two hex digits, bytes that are not UTF-8, or a control character once decoded.
        public static let invalidPercentEncoding = Code("invalid_percent_encoding")
        /// The path has more segments than ``RouteLimits/maximumSegments``.
        public static let tooManySegments = Code("too_many_segments")
        /// The query has more items than ``RouteLimits/maximumQueryItems``.
        public static let tooManyQueryItems = Code("too_many_query_items")
        /// The scheme is neither the app's own nor `https` for its universal links.
        public static let foreignScheme = Code("foreign_scheme")
        /// An `https` URL whose host is not one of the universal-link hosts.
        public static let foreignHost = Code("foreign_host")
        /// An `https` URL on a universal-link host, outside the configured path prefix.
        public static let outsidePathPrefix = Code("outside_path_prefix")
        /// The path matches no declared route.
        public static let noMatchingRoute = Code("no_matching_route")
        /// A path segment where a route expects a parameter is not a valid value of its type.
        public static let invalidParameter = Code("invalid_parameter")
        /// A required query item is absent.
        public static let missingQueryItem = Code("missing_query_item")
        /// A query item is not a valid value of its type.
        public static let invalidQueryItem = Code("invalid_query_item")
        /// A query item the route reads appears more than once.
        public static let duplicateQueryItem = Code("duplicate_query_item")
        /// The route cannot be written as a URL: no declared case takes it, or a value has no URL form.
        public static let unprintableRoute = Code("unprintable_route")
        /// The scheme, a host or the path prefix of a link configuration is not valid.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// A push payload is not a JSON object with a `route` string holding one of the app's URLs.
        public static let invalidPushPayload = Code("invalid_push_payload")
    }

    /// The stable code.
    public let code: Code
    /// A sentence a developer can act on.
    public let message: String
    /// The part at fault (`url`, `scheme`, `host`, `path`, `path[2]`, `query.tab`, `route`), when there is one.
    public let field: String?
    /// The error underneath, when there is one.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.underlying = underlying
    }

    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
}
