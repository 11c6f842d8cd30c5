import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps

/// `pwakit miniapp install APP`: checks the app's channel and installs a newer release, verified
/// against the pinned publisher keys, fetching only the files the store lacks.
struct MiniAppInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install or update a mini-app: verify its signature against pinned keys, fetch only missing files."
    )

    @Argument(help: "The app id.")
    var appId: String

    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("trust-key"),
        help: "A publisher public key (base64 of its 32 bytes, as `pwakit keys generate` prints) to pin; repeatable.")
    var trustKeys: [String] = []

    @Option(help: "The release channel.")
    var channel = "stable"

    @Flag(help: "Activate the new release at once instead of at the app's next launch.")
    var now = false

    @Option(help: "Files fetched at once (1-16).")
    var concurrency = 4

    func validate() throws {
        guard !trustKeys.isEmpty else {
            throw ValidationError("pass at least one --trust-key: releases are verified against pinned keys only")
        }
        guard (1...16).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 16") }
        for (index, key) in trustKeys.enumerated() {
            guard (try? VerifyingKey(base64: key)) != nil else {
                throw ValidationError("--trust-key #\(index + 1) is not the base64 of a 32-byte Ed25519 public key")
            }
        }
    }

    func run() async throws {
        try await CommandFailure.run {
            let store = try storeOptions.open()
            let session = try await account.signIn()
            let trust = PublisherTrust(keys: try trustKeys.map { try VerifyingKey(base64: $0) })
            let updater = Updater(client: session.client, store: store, trust: trust, tokens: session, concurrency: concurrency)
            for try await event in updater.update(appId: appId, channel: channel, activation: now ? .immediately : .nextLaunch) {
                switch event {
                case .upToDate:
                    print("\(appId) is up to date on \(channel)")
                case .progress(let progress):
                    Console.writeError(
                        "fetched \(progress.filesDone)/\(progress.filesTotal) files, \(progress.bytesDone)/\(progress.bytesTotal) bytes"
                    )
                case .installed(let release, let app):
                    let when = app.active == release.bundleHash ? "active now" : "active at the next launch"
                    print("installed \(appId) \(release.manifest.version) (\(release.bundleHash)), \(when)")
                }
            }
        }
    }
}
