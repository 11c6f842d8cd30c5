import ArgumentParser
import Crypto
import Foundation
import PWAKitAPI
import PWAKitBundles

/// `pwakit publish`: uploads the blobs the server lacks, with a progress bar, then the signed manifest.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a signed release: only the files the server lacks, then the manifest."
    )

    @Argument(help: "The directory the release was bundled from.")
    var directory: String

    @Option(help: "The signed release written by `pwakit bundle`.")
    var release: String

    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "An administrator's email address.")
    var email: String

    @Option(help: "The administrator's password (default: the PWAKIT_PASSWORD environment variable).")
    var password: String?

    @Option(help: "Share of users (0-100) who receive the release.")
    var rollout = 100

    func validate() throws {
        guard (0...100).contains(rollout) else { throw ValidationError("--rollout must be between 0 and 100") }
        guard URL(string: server)?.scheme.map({ ["http", "https"].contains($0) }) == true else {
            throw ValidationError("--server must be an http or https URL")
        }
    }

    func run() async throws {
        try await CommandFailure.run { try await publish() }
    }

    private func publish() async throws {
        guard let password = password ?? ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"], !password.isEmpty else {
            // NB: not a usage error (64): the command line is right, the environment lacks the secret.
            throw CommandFailure("no password: set PWAKIT_PASSWORD to the administrator's or publisher's password")
        }
        let signed = try JSONDecoder().decode(SignedRelease.self, from: try Data(contentsOf: URL(fileURLWithPath: release)))
        let manifest = try ManifestCoding.decode(try signed.manifestBytes())
        let builder = BundleBuilder(root: URL(fileURLWithPath: directory, isDirectory: true))
        // NB: every file is checked against the manifest before anything goes out, also those the server already has:
        // a file edited after `bundle` would otherwise publish a release whose bytes differ from the directory.
        var contents: [String: Data] = [:]
        for file in manifest.files {
            guard let data = try? Data(contentsOf: builder.url(for: file.path)) else {
                throw ValidationError("\(file.path) is listed in the release but cannot be read in \(directory)")
            }
            guard SHA256.hex(of: data) == file.sha256 else {
                throw ValidationError("\(file.path) changed since it was bundled; run `pwakit bundle` again")
            }
            contents[file.sha256] = data
        }
        guard let base = URL(string: server) else { throw ValidationError("--server is not a URL") }
        let client = APIClient(baseURL: base)
        let token = try await client.login(LoginRequest(email: email, password: password)).accessToken

        let request = PublishReleaseRequest(
            manifest: signed.manifest, keyId: signed.keyId, signature: signed.signature, rolloutPercent: rollout)
        // NB: the release goes first: the server checks its signature and version before its blobs, so a release
        // that cannot be published is refused before anything is uploaded; one whose blobs are all there is done.
        do {
            _ = try await client.publish(appId: manifest.appId, request, accessToken: token)
            FileHandle.standardError.write(
                Data("\(manifest.blobHashes.count) blobs in the release, 0 missing on the server\n".utf8))
            print(
                "published \(manifest.appId) \(manifest.version) on \(manifest.channel); bundle hash \(try signed.bundleHash())")
            return
        } catch let error as APIClientError where error.code.rawValue == "missing_blobs" {}

        let missing = Set(try await client.missingBlobs(Array(manifest.blobHashes).sorted(), accessToken: token))
        var uploads: [ManifestFile] = []
        for file in manifest.files where missing.contains(file.sha256) && !uploads.contains(where: { $0.sha256 == file.sha256 }) {
            uploads.append(file)
        }
        FileHandle.standardError.write(
            Data("\(manifest.blobHashes.count) blobs in the release, \(uploads.count) missing on the server\n".utf8))
        var progress = PublishProgressBar(totalItems: uploads.count, totalBytes: uploads.reduce(0) { $0 + $1.size })
        progress.draw()
        do {
            for file in uploads {
                let data = contents[file.sha256] ?? Data()
                _ = try await client.uploadBlob(data, sha256: file.sha256, accessToken: token)
                progress.advance(bytes: data.count)
            }
        } catch {
            // NB: the error gets a line of its own, not the end of the bar's.
            progress.finish()
            throw error
        }
        progress.finish()
        _ = try await client.publish(appId: manifest.appId, request, accessToken: token)
        print("published \(manifest.appId) \(manifest.version) on \(manifest.channel); bundle hash \(try signed.bundleHash())")
    }
}
