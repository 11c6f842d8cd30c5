import ArgumentParser
import Foundation
import PWAKitAPI

/// `pwakit admin publishers`: who may publish an app without being an administrator.
struct AdminPublishersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publishers", abstract: "Who may publish an app besides administrators.",
        subcommands: [List.self, Grant.self, Revoke.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's publishers.")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(try await client.publishers(appId: connection.appId, accessToken: token))
            }
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let an account upload blobs and publish and roll out this app's releases (nothing else).")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The account's email.")
        var publisherEmail: String

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(
                    try await client.grantPublisher(appId: connection.appId, email: publisherEmail, accessToken: token))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an account's right to publish the app back.")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The account's user id (as `list` shows it; after `--` when it starts with `-`).")
        var userId: String

        func run() async throws {
            try await connection.run { client, token in
                try await client.revokePublisher(appId: connection.appId, userId: userId, accessToken: token)
                FileHandle.standardOutput.write(Data("\(userId) can no longer publish \(connection.appId)\n".utf8))
            }
        }
    }
}
