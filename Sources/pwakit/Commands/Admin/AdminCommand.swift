import ArgumentParser
import Foundation
import PWAKitAPI

/// `pwakit admin`: an administrator's view of one app's trust on a running server: publisher keys,
/// backend credentials and who may publish.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "List and revoke an app's publisher keys and backend credentials; grant and revoke publishing rights.",
        subcommands: [AdminKeysCommand.self, AdminCredentialsCommand.self, AdminPublishersCommand.self])
}

/// Where and as whom an `admin` subcommand signs in.
struct AdminConnection: ParsableArguments {
    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "An administrator's email address.")
    var email: String

    @Option(name: .customLong("app-id"), help: "The app.")
    var appId: String

    func validate() throws {
        guard URL(string: server)?.scheme.map({ ["http", "https"].contains($0) }) == true else {
            throw ValidationError("--server must be an http or https URL")
        }
    }

    /// Signs in with the password from `PWAKIT_PASSWORD` (never an option: the command line is visible to
    /// every user of the machine) and runs `body` with the client and an access token; any failure is one
    /// `error:` line and exit status 1.
    func run(_ body: (APIClient, String) async throws -> Void) async throws {
        try await CommandFailure.run {
            guard let password = ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"], !password.isEmpty else {
                throw CommandFailure("set PWAKIT_PASSWORD to the administrator's password")
            }
            guard let base = URL(string: server) else { throw CommandFailure("--server is not a URL") }
            let client = APIClient(baseURL: base)
            let token = try await client.login(LoginRequest(email: email, password: password)).accessToken
            try await body(client, token)
        }
    }

    /// Prints a value as indented JSON on standard output.
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
    }
}
