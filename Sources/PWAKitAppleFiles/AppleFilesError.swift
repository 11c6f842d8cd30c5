public import PWAKitErrors

/// Why the Apple files cannot be rendered or an existing one cannot be merged: a stable code,
/// a sentence, and the configuration field or file at fault.
public struct AppleFilesError: Error, Sendable, CustomStringConvertible {
    /// A stable code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// A feature that asks for a permission is on and its usage description is not declared.
        public static let missingUsageDescription = Code("missing_usage_description")
        /// `origins.allowed` and `origins.auth` name more than the 10 app-bound domains iOS accepts.
        public static let tooManyAppBoundDomains = Code("too_many_app_bound_domains")
        /// An existing file is not a property list whose root is a dictionary, or is over 1 MiB.
        public static let unreadablePropertyList = Code("unreadable_property_list")
    }

    /// The stable code.
    public let code: Code
    /// A sentence a developer can act on.
    public let message: String
    /// The configuration field (`identifiers.usageDescriptions.NSCameraUsageDescription`) or the file at fault.
    public let field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
}

extension AppleFilesError: CodedError {
    /// The code's string.
    public var codeName: String { code.rawValue }
    /// The field at fault.
    public var fieldPath: String? { field }
}
