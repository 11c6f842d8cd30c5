public import PWAKitErrors

/// A share that cannot be queued: the field at fault and why.
public struct ShareError: Error, Sendable, CustomStringConvertible {
    /// The field (`note`, `id`).
    public let field: String
    /// Why.
    public let message: String

    /// Creates an error.
    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}

extension ShareError: CodedError {
    /// `share.invalid`.
    public var codeName: String { "share.invalid" }
    /// The field.
    public var fieldPath: String? { field }
}
