/// One problem the validator found, with the JSON path of the field at fault.
public struct ValidationIssue: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Whether the problem makes the file invalid.
    public enum Severity: String, Sendable, Codable {
        /// The file is invalid.
        case error
        /// Worth fixing (an unknown key, a duplicate entry), but the file is usable.
        case warning
    }

    /// A stable, machine-readable kind of problem; encoded as its string.
    public struct Code: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's text, e.g. `wrong_type`.
        public let rawValue: String

        /// Creates a code from its text.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The document is not well-formed JSON (the message gives line and column).
        public static let invalidJSON = Code("invalid_json")
        /// The document exceeds ``ConfigurationValidator/maximumSize``.
        public static let tooLarge = Code("too_large")
        /// An object names the same key twice.
        public static let duplicateKey = Code("duplicate_key")
        /// A required field is absent.
        public static let missingField = Code("missing_field")
        /// A value has the wrong JSON type (the message names the expected one).
        public static let wrongType = Code("wrong_type")
        /// A key the schema does not define (a warning).
        public static let unknownKey = Code("unknown_key")
        /// `version` names a schema version this build does not understand.
        public static let unsupportedVersion = Code("unsupported_version")
        /// A string or list that must not be empty is.
        public static let empty = Code("empty")
        /// `app.bundleId` is not a reverse-DNS identifier.
        public static let invalidBundleId = Code("invalid_bundle_id")
        /// `app.startUrl` is not an acceptable URL.
        public static let invalidStartURL = Code("invalid_start_url")
        /// `app.startUrl` would not load inside the app under `origins`.
        public static let startURLNotAllowed = Code("start_url_not_allowed")
        /// An origin pattern does not parse.
        public static let invalidPattern = Code("invalid_pattern")
        /// A pattern is both allowed and external.
        public static let conflictingPattern = Code("conflicting_pattern")
        /// A pattern is listed twice in the same list (a warning).
        public static let duplicatePattern = Code("duplicate_pattern")
        /// A grant key or entry is malformed.
        public static let invalidGrant = Code("invalid_grant")
        /// A grant key names origins that `origins.allowed` does not cover.
        public static let grantNotAllowed = Code("grant_not_allowed")
        /// A value is not one of the accepted ones.
        public static let invalidValue = Code("invalid_value")
        /// A colour is not `#RRGGBB`.
        public static let invalidColor = Code("invalid_color")

        /// Decodes a code from its string.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the code as its string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// The code's text.
        public var description: String { rawValue }
    }

    /// Error or warning.
    public var severity: Severity
    /// The JSON path of the field at fault, e.g. `origins.allowed[2]`; empty for the whole document.
    public var path: String
    /// What is wrong, for people.
    public var message: String
    /// What is wrong, for programs.
    public var code: Code

    /// Creates an issue.
    public init(severity: Severity, path: String, message: String, code: Code) {
        self.severity = severity
        self.path = path
        self.message = message
        self.code = code
    }

    /// `origins.allowed[2]: "*.": empty label`.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
