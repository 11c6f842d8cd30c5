import Foundation
import HTTPTypes
public import Logging
import NIOPosix
import NIOSSL
import PostgresNIO

extension SQLStorage {
    /// Connects to PostgreSQL at `postgres://user[:password]@host[:port]/database[?sslmode=…&sslrootcert=…]`,
    /// for deployments where several stateless replicas share one database.
    ///
    /// - `password` (from the environment or a file; see `pwakit server`) is used when the URL has none.
    /// - `sslmode` means what it means to libpq: `disable`; `prefer` (the default: TLS when the server
    ///   offers it, unverified); `require` (TLS, unverified); `verify-ca` (the certificate chains to
    ///   `sslrootcert`, or the system's roots); `verify-full` (that, and the host name matches).
    public static func postgres(
        url: String, password: String? = nil, logger: Logger = Logger(label: "pwakit.postgres"), maximumConnections: Int = 16
    ) async throws -> SQLStorage {
        let connection = try PostgresConnectionOptions(url: url, password: password)
        // NB: one direct connection first, so a refusal (TLS required but not offered, a certificate that does not
        // verify, a wrong password) is reported at once; the pool would keep retrying it until its lease times out.
        do {
            var probe = PostgresConnection.Configuration(
                host: connection.host, port: connection.port, username: connection.user, password: connection.password,
                database: connection.database, tls: try connection.connectionTLS())
            probe.options.connectTimeout = .seconds(10)
            let opened = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: probe, id: 0, logger: logger
            ).get()
            try await opened.close()
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(
                message:
                    "cannot connect to PostgreSQL at \(connection.host):\(connection.port) (sslmode \(connection.tlsMode.rawValue)): \(String(reflecting: error))"
            )
        }
        var configuration = PostgresClient.Configuration(
            host: connection.host, port: connection.port, username: connection.user, password: connection.password,
            database: connection.database, tls: try connection.tls()
        )
        configuration.options.maximumConnections = max(1, maximumConnections)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let runner = Task { await client.run() }
        let driver = PostgresDriver(client: client, logger: logger, runner: runner)
        do {
            _ = try await driver.query("SELECT 1 AS one", [])
        } catch {
            try? await driver.close()
            throw StorageError(
                message: "cannot reach PostgreSQL at \(connection.host):\(connection.port): \(String(reflecting: error))")
        }
        return SQLStorage(driver: driver)
    }
}

/// A PostgreSQL URL taken apart, with its TLS mode; every mistake names the part at fault.
public struct PostgresConnectionOptions: Sendable, Hashable {
    /// libpq's `sslmode` values.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, the certificate unchecked.
        case prefer
        /// TLS always, the certificate unchecked.
        case require
        /// TLS, the certificate chained to the trusted roots.
        case verifyCA = "verify-ca"
        /// TLS, the certificate chained to the trusted roots and naming the host.
        case verifyFull = "verify-full"
    }

    /// The server's host.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The user name.
    public var user: String
    /// The password, from the URL or given separately.
    public var password: String?
    /// The database, when the URL names one.
    public var database: String?
    /// The TLS mode.
    public var tlsMode: TLSMode
    /// PEM roots to verify the server's certificate against (`sslrootcert`); the system's when `nil`.
    public var rootCertificatePath: String?

    /// Parses a URL; `password` is used when the URL carries none.
    public init(url: String, password: String? = nil) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw StorageError(message: "database URL must look like postgres://user@host:5432/database")
        }
        guard let host = components.host, !host.isEmpty else { throw StorageError(message: "database URL: the host is missing") }
        guard let user = components.user, !user.isEmpty else {
            throw StorageError(message: "database URL: the user is missing (postgres://user@host/database)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
        var mode = TLSMode.prefer
        var roots: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let parsed = TLSMode(rawValue: value) else {
                    throw StorageError(
                        message:
                            "database URL: sslmode \"\(item.value ?? "")\" is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                mode = parsed
            case "sslrootcert":
                guard let value = item.value, !value.isEmpty else {
                    throw StorageError(message: "database URL: sslrootcert needs a file path")
                }
                roots = value
            default:
                throw StorageError(message: "database URL: unknown parameter \"\(item.name)\" (known: sslmode, sslrootcert)")
            }
        }
        self.tlsMode = mode
        self.rootCertificatePath = roots
    }

    func tls() throws -> PostgresClient.Configuration.TLS {
        guard let tls = try tlsConfiguration() else { return .disable }
        return tlsMode == .prefer ? .prefer(tls) : .require(tls)
    }

    func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let tls = try tlsConfiguration() else { return .disable }
        let context = try NIOSSLContext(configuration: tls)
        return tlsMode == .prefer ? .prefer(context) : .require(context)
    }

    private func tlsConfiguration() throws -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable: return nil
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificatePath {
            guard FileManager.default.isReadableFile(atPath: rootCertificatePath) else {
                throw StorageError(message: "database URL: sslrootcert \(rootCertificatePath) cannot be read")
            }
            tls.trustRoots = .file(rootCertificatePath)
        }
        return tls
    }
}
