/// An error raised while building, encoding, parsing, signing or verifying a release.
public struct BundleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code; new codes are added, existing ones never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form of the code.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The manifest bytes are not valid JSON or do not have the manifest's shape.
        public static let malformedManifest = Code("malformed_manifest")
        /// A field of the manifest has a value outside what the format allows.
        public static let invalidField = Code("invalid_field")
        /// The signature does not verify against the given key.
        public static let badSignature = Code("bad_signature")
        /// A key file or key string could not be read.
        public static let invalidKey = Code("invalid_key")
        /// A directory or file could not be read.
        public static let ioFailure = Code("io_failure")

        /// The stable string form of the code.
        public var description: String { rawValue }
    }

    /// The stable code of the error.
    public let code: Code
    /// A human-readable explanation.
    public let message: String
    /// The JSON path or file path at fault, when one is known (for example `files[2].sha256`).
    public let field: String?

    /// Creates an error with a code, a message and the field at fault.
    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// A one-line rendering: `code (field): message`.
    public var description: String {
        if let field { return "\(code) (\(field)): \(message)" }
        return "\(code): \(message)"
    }
}
