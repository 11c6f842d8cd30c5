/// The one error shape every target's errors share: a stable code, a message a developer can act
/// on, the field at fault as a path, and the error underneath, if any.
///
/// Each target keeps its own error struct (its codes are its own, listed once in its docs), and
/// each conforms here, so the edges — bridge answers, HTTP error bodies, the CLI's messages and exit
/// codes — read every error the same way (``ErrorReport``).
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    /// The stable code, as written on the wire (`invalid_payload`, `biometrics.lockout`, `io_failed`).
    var codeName: String { get }
    /// What went wrong, for a developer.
    var message: String { get }
    /// The field at fault (`payload.trigger.seconds`, `files[2].sha256`), when one is.
    var fieldPath: String? { get }
    /// The error this one wraps, when it has one.
    var underlying: (any Error & Sendable)? { get }
}

extension CodedError {
    /// No field.
    public var fieldPath: String? { nil }
    /// No cause.
    public var underlying: (any Error & Sendable)? { nil }
}

/// Any error read as the one shape: a ``CodedError`` as it is, anything else as `internal_error`
/// with its description.
public struct ErrorReport: Sendable, Hashable, CustomStringConvertible {
    /// The stable code.
    public var code: String
    /// The message.
    public var message: String
    /// The field at fault.
    public var field: String?
    /// The messages of the errors underneath, outermost first.
    public var causes: [String]

    /// Creates a report.
    public init(code: String, message: String, field: String? = nil, causes: [String] = []) {
        self.code = code
        self.message = message
        self.field = field
        self.causes = causes
    }

    /// The report of `error`.
    public init(_ error: any Error) {
        guard let coded = error as? any CodedError else {
            self.init(code: "internal_error", message: String(describing: error))
            return
        }
        var causes: [String] = []
        var next = coded.underlying
        while let cause = next, causes.count < 8 {
            causes.append((cause as? any CodedError)?.description ?? String(describing: cause))
            next = (cause as? any CodedError)?.underlying
        }
        self.init(code: coded.codeName, message: coded.message, field: coded.fieldPath, causes: causes)
    }

    /// `code (field): message`, then `caused by: …` per cause.
    public var description: String {
        ([code + (field.map { " (\($0))" } ?? "") + ": " + message] + causes.map { "caused by: \($0)" })
            .joined(separator: "\n")
    }
}
