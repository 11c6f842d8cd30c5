import ArgumentParser
import Foundation
import PWAKitAPI

/// `pwakit admin keys`: an app's publisher keys.
struct AdminKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "An app's publisher keys.", subcommands: [List.self, Add.self, Revoke.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's keys, revoked ones with their time.")
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(try await client.publisherKeys(appId: connection.appId, accessToken: token))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust a public key to sign the app's releases (rotation).")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "Base64 of the raw 32-byte Ed25519 public key (`pwakit keys generate` prints it).")
        var publicKey: String

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(
                    try await client.addPublisherKey(appId: connection.appId, publicKey: publicKey, accessToken: token))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key: no new release signed by it is accepted.",
            discussion:
                "Releases it already signed stay served (hosts verify against the keys they pin) unless --withdraw-releases, for a key that leaked."
        )
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The key id (ed25519-…).")
        var keyId: String
        @Flag(help: "Also withdraw every release the key signed.")
        var withdrawReleases = false

        func run() async throws {
            try await connection.run { client, token in
                try AdminConnection.print(
                    try await client.revokePublisherKey(
                        appId: connection.appId, keyId: keyId, withdrawReleases: withdrawReleases, accessToken: token))
            }
        }
    }
}
