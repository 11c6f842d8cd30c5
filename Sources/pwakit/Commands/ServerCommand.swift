import ArgumentParser
import Foundation
import Logging
import PWAKitServer

/// `pwakit server`: runs the platform server; zero set-up on SQLite under `--data-dir`.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the platform server (identity, catalog, releases, bundle delivery, launch codes)."
    )

    @Option(help: "Directory for the SQLite database and the blob store (created if missing).")
    var dataDir = "pwakit-data"

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @Option(help: "PostgreSQL URL (postgres://user:password@host:5432/db) instead of SQLite; blobs stay under --data-dir.")
    var databaseURL: String?

    @Option(help: "JSON file with users and apps to create at start (idempotent).")
    var seed: String?

    @Flag(help: "Take the client address from X-Forwarded-For (only behind a trusted proxy).")
    var trustForwardedFor = false

    @Option(
        name: .customLong("proxy-hops"),
        help:
            "With --trust-forwarded-for: how many trusted proxies append to X-Forwarded-For (the client is that many entries from the right)."
    )
    var proxyHops = 1

    @Option(help: ArgumentHelp("scrypt cost N for new password hashes (a power of two).", visibility: .hidden))
    var passwordCost = ScryptParameters.standard.n

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...16).contains(proxyHops) else { throw ValidationError("--proxy-hops must be between 1 and 16") }
        guard passwordCost >= 2, passwordCost & (passwordCost - 1) == 0, passwordCost <= 1 << 20 else {
            throw ValidationError("--password-cost must be a power of two between 2 and 1048576")
        }
    }

    func run() async throws {
        var logger = Logger(label: "pwakit.server")
        logger.logLevel = .notice
        let dataURL = URL(fileURLWithPath: dataDir, isDirectory: true)
        // Owner only: everything the server creates (the database and its journal, blobs) is 0600/0700,
        // and an existing data directory and database are tightened to match.
        umask(0o077)
        try FileManager.default.createDirectory(
            at: dataURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(dataURL.path, 0o700)
        for suffix in ["", "-wal", "-shm"] {
            let path = dataURL.appendingPathComponent("pwakit.sqlite" + suffix).path
            if FileManager.default.fileExists(atPath: path) { chmod(path, 0o600) }
        }
        let storage: SQLStorage =
            if let databaseURL {
                try await SQLStorage.postgres(url: databaseURL, logger: logger)
            } else {
                try await SQLStorage.sqlite(path: dataURL.appendingPathComponent("pwakit.sqlite").path, logger: logger)
            }
        do {
            try await serve(storage: storage, dataURL: dataURL, logger: logger)
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }

    private func serve(storage: SQLStorage, dataURL: URL, logger: Logger) async throws {
        var configuration = ServerConfiguration()
        configuration.trustForwardedFor = trustForwardedFor
        configuration.trustedProxyHops = proxyHops
        configuration.passwordHashing.n = passwordCost
        let server = try await PlatformServer.make(
            storage: storage, blobs: try FileBlobStore(root: dataURL.appendingPathComponent("blobs")),
            configuration: configuration)
        if let seed {
            for line in try await server.apply(ServerSeed.load(contentsOf: URL(fileURLWithPath: seed))) {
                ServerOutput.standardError("seeded \(line)")
            }
        }
        let engine = databaseURL == nil ? "SQLite in \(dataURL.path)" : "PostgreSQL"
        let host = self.host
        try await server.run(host: host, port: port, logger: logger) { boundPort in
            ServerOutput.standardOutput("PWAKit server listening on http://\(host):\(boundPort) (\(engine))")
        }
    }
}

/// Unbuffered line output, so a supervising process sees the listening line at once.
enum ServerOutput {
    static func standardOutput(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    static func standardError(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
