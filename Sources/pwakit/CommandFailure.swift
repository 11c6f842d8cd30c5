import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitErrors
import PWAKitFiles

/// A command's failure: the exit status and what to tell the user. Every error a command
/// can meet becomes one of these in ``CommandFailure/init(_:)``, the one place where
/// errors map to exit codes.
struct CommandFailure: Error {
    /// The process exit status.
    enum Status: Int32 {
        /// The input is invalid: a configuration with errors, malformed JSON, a file over
        /// 1 MiB, a manifest or option that cannot be imported.
        case invalid = 1
        /// The input cannot be read: missing, a directory without the expected file, no permission.
        case unreadable = 2
        /// `init` would overwrite an existing file and `--force` was not given.
        case outputExists = 3
        /// `init` could not write its output.
        case cannotWrite = 4
        /// `sync --check`: a generated file differs from what the configuration makes.
        case stale = 5
    }

    var status: Status
    /// A stable code, for `--json` output.
    var code: String
    /// What went wrong; nil when the command already printed its report.
    var message: String?
    /// The validator's findings, when there are any.
    var report: ValidationReport?

    init(status: Status, code: String, message: String?, report: ValidationReport? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.report = report
    }

    init(_ error: ConfigurationError) {
        let status: Status =
            switch error.code {
            case .unreadable, .manifestUnreadable: .unreadable
            default: .invalid
            }
        self.init(status: status, code: error.code.rawValue, message: error.message, report: error.report)
    }

    /// Any other error of the project's shape (``CodedError``): its code, its message with the
    /// field at fault, and the status its kind means (a file that cannot be read or written, or
    /// invalid input). A file-system error reads as its message alone; every other error names
    /// its code after the message (`no such app (not_found)`); a server that cannot be reached
    /// says so.
    init(_ error: any CodedError) {
        if let configuration = error as? ConfigurationError {
            self.init(configuration)
            return
        }
        let report = ErrorReport(error)
        var status = Status.invalid
        var message =
            report.field.map { field in report.message.hasPrefix(field) ? report.message : "\(field): \(report.message)" }
            ?? report.message
        if let file = error as? FileSystemError {
            status = ["open", "read"].contains(file.operation) ? .unreadable : .cannotWrite
        } else if let client = error as? APIClientError, client.code == .network || client.code == .timeout {
            message = "the server cannot be reached (\(report.message))"
        } else {
            if let bundle = error as? BundleError, bundle.code == .ioFailure { status = .unreadable }
            message += " (\(report.code))"
        }
        self.init(status: status, code: report.code, message: message)
    }

    /// A failure that is only a sentence (`no password: set PWAKIT_PASSWORD …`): exit status 1.
    init(_ message: String, code: String = "failed") {
        self.init(status: .invalid, code: code, message: message)
    }

    /// Runs an asynchronous command body the way ``run(json:_:)`` runs a synchronous one.
    static func run(json: Bool = false, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            try run(json: json) { throw failure }
        } catch let error as any CodedError {
            try run(json: json) { throw CommandFailure(error) }
        }
    }

    /// Runs a command body, turning any failure into its message on standard error (or a
    /// JSON object on standard output with `json`) and the matching exit status.
    static func run(json: Bool, _ body: () throws -> Void) throws {
        do {
            do {
                try body()
            } catch let failure as CommandFailure {
                throw failure
            } catch let error as any CodedError {
                throw CommandFailure(error)
            }
        } catch let failure as CommandFailure {
            throw report(failure, json: json)
        }
    }

    /// Writes `failure` as ``run(json:_:)`` does and returns the exit status to throw.
    static func report(_ failure: CommandFailure, json: Bool = false) -> ExitCode {
        if json {
            if let message = failure.message {
                Console.writeJSON(JSONFailure(error: .init(code: failure.code, message: message, report: failure.report)))
            }
        } else {
            if let message = failure.message { Console.writeError("error: \(message)") }
            if let report = failure.report {
                Console.writeError(ReportFormatter.lines(for: report).joined(separator: "\n"))
            }
        }
        return ExitCode(failure.status.rawValue)
    }

    private struct JSONFailure: Encodable {
        struct Body: Encodable {
            var code: String
            var message: String
            var report: ValidationReport?
        }
        var error: Body
    }
}
