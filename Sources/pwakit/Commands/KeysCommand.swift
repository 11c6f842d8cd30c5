import ArgumentParser
import Foundation
import PWAKitBundles

/// `pwakit keys`: publisher signing keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage Ed25519 publisher keys.",
        subcommands: [KeysGenerateCommand.self]
    )
}

/// `pwakit keys generate`: writes a new private key file and prints the public key to register with the server.
struct KeysGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate an Ed25519 publisher key; prints its key id and public key."
    )

    @Option(name: .shortAndLong, help: "Where to write the private key file (JSON, mode 0600).")
    var output: String

    @Flag(help: "Overwrite an existing file.")
    var force = false

    func run() async throws {
        if FileManager.default.fileExists(atPath: output), !force {
            Console.writeError("error: \(output) exists; pass --force to overwrite it")
            throw ExitCode(CommandFailure.Status.outputExists.rawValue)
        }
        let key = SigningKey.generate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(key.file)
        try CommandFailure.run(json: false) {
            guard FileManager.default.createFile(atPath: output, contents: data, attributes: [.posixPermissions: 0o600]),
                (try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)) != nil
            else {
                throw CommandFailure(status: .cannotWrite, code: "keys.cannot_write", message: "cannot write \(output)")
            }
        }
        let summary = ["keyId": key.keyId, "publicKey": key.verifyingKey.base64]
        print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }
}
