import ArgumentParser
import Foundation
import PWAKitBundles
import PWAKitFiles

/// `pwakit bundle <dir>`: builds and signs a release manifest for a directory of web files.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Build a release manifest for a directory and sign its exact bytes."
    )

    @Argument(help: "The directory of the mini-app's files.")
    var directory: String

    @Option(help: "The mini-app id.")
    var appId: String

    @Option(help: "The release version, MAJOR.MINOR.PATCH.")
    var version: String

    @Option(help: "The channel to publish on.")
    var channel = "stable"

    @Option(help: "The entry page's path inside the directory.")
    var entry = "index.html"

    @Option(help: "The private key file from `pwakit keys generate`.")
    var key: String

    @Option(name: .shortAndLong, help: "Where to write the signed release (JSON).")
    var output: String

    @Flag(help: "Overwrite an existing --output file.")
    var force = false

    func run() async throws {
        if FileManager.default.fileExists(atPath: output), !force {
            Console.writeError("error: \(output) exists; pass --force to overwrite it")
            throw ExitCode(CommandFailure.Status.outputExists.rawValue)
        }
        // NB: through CommandFailure, as every command: the error line and the exit status of
        // docs/errors.md (2 for a key or a directory that cannot be read, 4 for an output that
        // cannot be written, 1 for anything else).
        try await CommandFailure.run {
            let keyData: Data
            do { keyData = try Data(contentsOf: URL(fileURLWithPath: key)) } catch {
                throw CommandFailure(
                    status: .unreadable, code: "bundle.key_unreadable", message: "--key: cannot read \(key)")
            }
            let signingKey = try SigningKey(fileContents: keyData)
            let builder = BundleBuilder(root: URL(fileURLWithPath: directory, isDirectory: true))
            let manifest = try builder.manifest(appId: appId, version: version, channel: channel, entry: entry)
            let release = try SignedRelease.sign(manifest, with: signingKey)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data: Data
            do { data = try encoder.encode(release) } catch {
                throw CommandFailure("cannot encode the signed release: \(error)")
            }
            try DurableFile.replace(output, with: data)
            print(
                "bundled \(manifest.files.count) files, \(manifest.totalSize) bytes; bundle hash \(try release.bundleHash()); signed by \(signingKey.keyId)"
            )
        }
    }
}
