/// Why a configuration (or a web app manifest to import) could not be used.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's text, e.g. `config.invalid`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The file could not be read: missing, a directory without `pwa-config.json`, no permission.
        public static let unreadable = Code("config.unreadable")
        /// The file is not well-formed JSON; ``ConfigurationError/report`` says where.
        public static let invalidJSON = Code("config.invalid_json")
        /// The file is JSON but breaks the schema; ``ConfigurationError/report`` lists every problem.
        public static let invalid = Code("config.invalid")
        /// A web app manifest could not be read.
        public static let manifestUnreadable = Code("manifest.unreadable")
        /// A web app manifest is malformed or holds a value that cannot be imported.
        public static let manifestInvalid = Code("manifest.invalid")
        /// Importing needs a value that neither the manifest nor the options provide.
        public static let missingValue = Code("config.missing_value")
        /// An option given for importing is malformed (a colour that is not hex, a relative URL).
        public static let invalidOption = Code("config.invalid_option")

        /// The code's text.
        public var description: String { rawValue }
    }

    /// The reason, as a stable code.
    public var code: Code
    /// What went wrong, for people.
    public var message: String
    /// The validator's findings, when the error comes from validation.
    public var report: ValidationReport?

    /// Creates an error.
    public init(code: Code, message: String, report: ValidationReport? = nil) {
        self.code = code
        self.message = message
        self.report = report
    }

    /// The message followed by each reported error, one per line.
    public var description: String {
        guard let report, !report.errors.isEmpty else { return message }
        return ([message] + report.errors.map { "  \($0)" }).joined(separator: "\n")
    }
}
