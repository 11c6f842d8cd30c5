/// An error raised anywhere in WatchLink, carrying a stable machine-readable code.
///
/// Errors travel across the wire unchanged, so the code a handler throws on one device is
/// the code the caller sees on the other.
public struct WatchLinkError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// A stable, extensible error code; compare against the static members.
    public struct Code: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire spelling of the code, for example `not_reachable`.
        public let rawValue: String

        /// Creates a code from its wire spelling.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// Decodes a code from its wire spelling.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the code as its wire spelling.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// The wire spelling.
        public var description: String { rawValue }

        /// The session has not finished activating.
        public static let notActivated = Code("not_activated")
        /// The counterpart is not reachable for a live message.
        public static let notReachable = Code("not_reachable")
        /// The encoded payload exceeds the channel's size limit.
        public static let payloadTooLarge = Code("payload_too_large")
        /// No response arrived before the request's deadline.
        public static let timeout = Code("timeout")
        /// The handler ran at most once, but whether it ran is unknown (a crash or restart hid it).
        public static let outcomeUnknown = Code("outcome_unknown")
        /// The receiver has no handler registered for the request's type key.
        public static let noHandler = Code("no_handler")
        /// A handler for this type key is already registered.
        public static let duplicateRegistration = Code("duplicate_registration")
        /// A wire envelope could not be read.
        public static let invalidEnvelope = Code("invalid_envelope")
        /// The envelope uses a protocol version this build does not understand.
        public static let unsupportedVersion = Code("unsupported_version")
        /// A request or response payload could not be decoded into its Swift type.
        public static let decodingFailed = Code("decoding_failed")
        /// A value could not be encoded.
        public static let encodingFailed = Code("encoding_failed")
        /// The handler threw an error that was not a ``WatchLinkError``.
        public static let handlerFailed = Code("handler_failed")
        /// The outbox was full and this, its oldest request, was dropped.
        public static let outboxOverflow = Code("outbox_overflow")
        /// The request outlived the outbox expiry or arrived after its deadline.
        public static let expired = Code("expired")
        /// The request was cancelled by its caller.
        public static let cancelled = Code("cancelled")
        /// The underlying transport failed.
        public static let transportFailed = Code("transport_failed")
        /// A caller passed an invalid argument.
        public static let invalidArgument = Code("invalid_argument")
        /// A file handed to `transferFile` is missing, not a regular file, or cannot be read.
        public static let fileUnreadable = Code("file_unreadable")
        /// Reading or writing durable storage failed.
        public static let storageFailed = Code("storage_failed")
        /// A non-durable request reached a receiver incarnation it was not addressed to; it was not run.
        ///
        /// Internal to the protocol: the sender re-addresses the request or settles it `outcome_unknown`.
        public static let wrongIncarnation = Code("wrong_incarnation")
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation.
    public var message: String
    /// Additional machine-readable context, such as `["field": "deadline"]`.
    public var details: [String: String]

    /// Creates an error.
    public init(_ code: Code, _ message: String, details: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// `code: message` followed by any details.
    public var description: String {
        if details.isEmpty { return "\(code): \(message)" }
        let extra = details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return "\(code): \(message) [\(extra)]"
    }
}
