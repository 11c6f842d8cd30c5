import Foundation
import HTTPTypes
public import Logging
import PostgresNIO

extension SQLStorage {
    /// Connects to PostgreSQL at `postgres://user:password@host:port/database` (TLS off: loopback or a
    /// private network), for deployments where several stateless replicas share one database.
    public static func postgres(
        url: String, logger: Logger = Logger(label: "pwakit.postgres"), maximumConnections: Int = 16
    ) async throws -> SQLStorage {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, let user = components.user
        else {
            throw StorageError(message: "database URL must look like postgres://user:password@host:5432/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable
        )
        configuration.options.maximumConnections = max(1, maximumConnections)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let runner = Task { await client.run() }
        let driver = PostgresDriver(client: client, logger: logger, runner: runner)
        do {
            _ = try await driver.query("SELECT 1 AS one", [])
        } catch {
            try? await driver.close()
            throw error
        }
        return SQLStorage(driver: driver)
    }
}
