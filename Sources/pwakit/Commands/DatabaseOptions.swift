import ArgumentParser
import Foundation
import Logging
import PWAKitLinks
import PWAKitServer

/// Where the server's data lives: SQLite and blobs under `--data-dir`, or PostgreSQL with the blobs
/// still under `--data-dir`. Shared by `pwakit server` and `pwakit worker`, which must name the same place.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "Directory for the SQLite database and the blob store (created if missing).")
    var dataDir = "pwakit-data"

    @Option(
        help: ArgumentHelp(
            "PostgreSQL URL (postgres://user@host:5432/db?sslmode=verify-full) instead of SQLite; blobs stay under --data-dir.",
            discussion:
                "Also read from PWAKIT_DATABASE_URL. A password never goes on the command line: give it in PWAKIT_DATABASE_URL, PGPASSWORD or --database-password-file."
        ))
    var databaseURL: String?

    @Option(help: "File holding the PostgreSQL password (its first line).")
    var databasePasswordFile: String?

    var dataURL: URL { URL(fileURLWithPath: dataDir, isDirectory: true) }

    /// Creates the data directory owner-only (the process's umask becomes 077: everything created after,
    /// the database and its journal, blobs, the key file, is 0600/0700) and tightens an existing database.
    func prepareDataDirectory() throws {
        umask(0o077)
        try FileManager.default.createDirectory(
            at: dataURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(dataURL.path, 0o700)
        for suffix in ["", "-wal", "-shm"] {
            let path = dataURL.appendingPathComponent("pwakit.sqlite" + suffix).path
            if FileManager.default.fileExists(atPath: path) { chmod(path, 0o600) }
        }
    }

    /// Opens (and migrates) the storage these options name.
    func openStorage(environment: [String: String], logger: Logger) async throws -> SQLStorage {
        if let databaseURL = try postgresURL(environment: environment) {
            let options = try PostgresConnectionOptions(url: databaseURL)
            let password: String? =
                if options.password != nil {
                    nil
                } else if let databasePasswordFile {
                    try Self.firstLine(of: databasePasswordFile, what: "--database-password-file")
                } else {
                    environment["PGPASSWORD"]
                }
            return try await SQLStorage.postgres(url: databaseURL, password: password, logger: logger)
        }
        return try await SQLStorage.sqlite(path: dataURL.appendingPathComponent("pwakit.sqlite").path, logger: logger)
    }

    /// The blob store under the data directory.
    func blobStore() throws -> FileBlobStore { try FileBlobStore(root: dataURL.appendingPathComponent("blobs")) }

    /// How the storage is said in the start-up line.
    func engineDescription(_ storage: SQLStorage) async throws -> String {
        if let tls = try await storage.postgresTLS() { return tls.inUse ? "PostgreSQL over TLS" : "PostgreSQL without TLS" }
        return "SQLite in \(dataURL.path)"
    }

    /// The PostgreSQL URL, from `--database-url` (which may not carry a password: the command line is
    /// visible to every user of the machine) or `PWAKIT_DATABASE_URL`.
    private func postgresURL(environment: [String: String]) throws -> String? {
        if let databaseURL {
            if let components = URLComponents(string: databaseURL), components.password != nil {
                throw ServerStartError(
                    "--database-url must not carry a password (the command line is visible to other users); put the URL in PWAKIT_DATABASE_URL, or the password in PGPASSWORD or --database-password-file"
                )
            }
            return databaseURL
        }
        return environment["PWAKIT_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func firstLine(of path: String, what: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServerStartError("\(what) \(path) cannot be read")
        }
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}

/// How links are fetched for previews, shared by `pwakit server` and `pwakit worker`.
struct LinkFetchOptions: ParsableArguments {
    @Option(
        name: .customLong("link-resolve"),
        help: ArgumentHelp(
            "Pin a name for link previews: NAME:PORT:ADDRESS resolves NAME to ADDRESS and lets that address be reached on PORT even when it is not public (repeatable; a test site, a staging host).",
            valueName: "name:port:address"))
    var linkResolve: [String] = []

    @Option(help: "Seconds a worker holds a claimed job before another may rescue it (renewed every third while it runs).")
    var leaseSeconds = 300

    func validate() throws {
        guard (3...86_400).contains(leaseSeconds) else { throw ValidationError("--lease-seconds must be between 3 and 86400") }
        for pin in linkResolve {
            do {
                _ = try LinkPin(pin)
            } catch {
                throw ValidationError("--link-resolve \(error.message)")
            }
        }
    }

    /// The fetcher with the pinned names.
    func fetcher() throws -> SafeFetcher {
        SafeFetcher.pinning(try linkResolve.map { try LinkPin($0) })
    }

    /// The runner's configuration for `concurrency` loops.
    func runnerConfiguration(concurrency: Int) -> JobRunnerConfiguration {
        JobRunnerConfiguration(concurrency: concurrency, lease: .seconds(leaseSeconds))
    }
}
