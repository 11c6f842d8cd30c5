/// Why an origin pattern was rejected; ``description`` reads `"*.": empty label`.
public struct OriginPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's text, e.g. `empty_label`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The pattern is empty.
        public static let empty = Code("empty")
        /// The pattern contains a space or other whitespace.
        public static let whitespace = Code("whitespace")
        /// The pattern names a scheme (`https://…`); patterns name hosts.
        public static let scheme = Code("scheme")
        /// The pattern contains a character outside ASCII; hosts are written in punycode.
        public static let nonASCII = Code("non_ascii")
        /// The host contains a character a host name cannot hold.
        public static let invalidCharacter = Code("invalid_character")
        /// A dot-separated label of the host is empty (`a..b`, `*.`, `.example.com`).
        public static let emptyLabel = Code("empty_label")
        /// A label is malformed: too long, or starts or ends with a hyphen.
        public static let invalidLabel = Code("invalid_label")
        /// `*` is used anywhere but as the whole leftmost label, or alone.
        public static let wildcard = Code("wildcard")
        /// The port is empty, not a number, or outside 1–65535.
        public static let invalidPort = Code("invalid_port")
        /// The path holds `?`, `#`, or a `*` that is not its last character.
        public static let invalidPath = Code("invalid_path")
        /// The host is longer than 253 characters.
        public static let tooLong = Code("too_long")

        /// The code's text.
        public var description: String { rawValue }
    }

    /// The reason, as a stable code.
    public let code: Code
    /// The pattern as written.
    public let pattern: String
    /// What is wrong, e.g. `empty label`.
    public let message: String

    /// Creates an error for `pattern`.
    public init(code: Code, pattern: String, message: String) {
        self.code = code
        self.pattern = pattern
        self.message = message
    }

    /// `"*.": empty label`.
    public var description: String {
        "\"\(pattern)\": \(message)"
    }
}
