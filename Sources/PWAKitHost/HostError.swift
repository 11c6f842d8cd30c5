/// A host failure: a stable code and a message for the person running the app.
public struct HostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's text, e.g. `invalid_argument`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// An argument or configuration value cannot be used.
        public static let invalidArgument = Code("invalid_argument")
        /// A file or directory could not be read or written.
        public static let io = Code("io")
        /// The display or web engine could not start.
        public static let engineUnavailable = Code("engine_unavailable")

        public var description: String { rawValue }
    }

    /// The code.
    public var code: Code
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
