/// The JSON body of every error the server answers: `{"error": {"code", "message", "field"?}}`.
public struct ErrorBody: Codable, Hashable, Sendable {
    /// The error.
    public var error: Detail

    /// Wraps a detail.
    public init(error: Detail) { self.error = error }

    /// The stable code, the sentence and the field at fault.
    public struct Detail: Codable, Hashable, Sendable {
        /// A stable, machine-readable code (`invalid_request`, `refresh_token_reused`, …).
        public var code: String
        /// A sentence a person understands.
        public var message: String
        /// The request field at fault (`password`, `files[2].sha256`), when there is one.
        public var field: String?

        /// Creates a detail.
        public init(code: String, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }
}
