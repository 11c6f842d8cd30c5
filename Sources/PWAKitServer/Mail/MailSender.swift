import Foundation

/// A plain-text email.
public struct MailMessage: Hashable, Sendable {
    /// The sender's address.
    public var from: String
    /// The recipient's address.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The text body.
    public var text: String

    /// Creates a message.
    public init(from: String, to: String, subject: String, text: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
    }
}

/// What sends email: SMTP in production, anything in tests.
public protocol MailSender: Sendable {
    /// Sends `message`, or throws why it was not accepted.
    func send(_ message: MailMessage) async throws
}

/// A message that was not accepted: the SMTP reply (code and text) or the connection failure.
public struct MailError: Error, Sendable, CustomStringConvertible {
    /// The SMTP reply code, when the server answered.
    public var code: Int?
    /// What happened.
    public var message: String
    /// Whether trying again later may work (a 4xx reply, a lost connection).
    public var isTransient: Bool

    /// Creates an error.
    public init(code: Int?, _ message: String, isTransient: Bool) {
        self.code = code
        self.message = message
        self.isTransient = isTransient
    }

    /// `SMTP <code>: <message>`.
    public var description: String { code.map { "SMTP \($0): \(message)" } ?? message }
}
