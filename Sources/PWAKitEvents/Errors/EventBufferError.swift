public import PWAKitErrors

/// Why the event buffer or its relay could not do what was asked: a struct with stable codes.
public struct EventBufferError: CodedError, Hashable {
    /// The stable code.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code as written (`invalid_event`).
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The event breaks a rule of `EventRules`; the field says which.
        public static let invalidEvent = Code(rawValue: "invalid_event")
        /// The buffer's files could not be read or written.
        public static let storageFailed = Code(rawValue: "storage_failed")
        /// Sending needs a signed-in user and there is none; the events wait in the buffer.
        public static let notSignedIn = Code(rawValue: "not_signed_in")
    }

    /// The code.
    public let code: Code
    /// What went wrong.
    public let message: String
    /// The field at fault (`name`, `properties.screen`).
    public let field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// `events.<code>`.
    public var codeName: String { "events.\(code.rawValue)" }
    /// The field at fault.
    public var fieldPath: String? { field }
    /// `events.<code> (field): message`.
    public var description: String { "\(codeName)\(field.map { " (\($0))" } ?? ""): \(message)" }
}
