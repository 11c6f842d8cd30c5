import ArgumentParser
import Foundation
import PWAKitAPI

/// `pwakit admin credentials`: an app's backend credentials (for launch-code exchange).
struct AdminCredentialsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials", abstract: "An app's backend credentials.", subcommands: [List.self, Create.self, Revoke.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's credentials (never their secrets).")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(try await client.credentials(appId: connection.appId, accessToken: token))
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a credential; its secret is shown this once.")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(try await client.createCredential(appId: connection.appId, accessToken: token))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a credential: it authenticates nothing from now on.")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The credential id.")
        var credentialId: String

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(
                    try await client.revokeCredential(appId: connection.appId, credentialId: credentialId, accessToken: token))
            }
        }
    }
}
