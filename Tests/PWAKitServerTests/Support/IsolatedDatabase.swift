import Foundation

@testable import PWAKitServer

extension StorageEngine {
    /// Like ``withStorage(_:)``, but on PostgreSQL in a database of its own, created for the call and
    /// dropped after it: for tests whose statements reach every row (a purge), which on the shared
    /// database would race with other suites' rows and with real-time servers purging at start.
    func withIsolatedStorage(_ body: (SQLStorage) async throws -> Void) async throws {
        guard self == .postgres, Self.postgresURL != nil else {
            try await withStorage(body)
            return
        }
        try await withIsolatedDatabase { url in
            let storage = try await SQLStorage.postgres(url: url, maximumConnections: 1)
            do { try await body(storage) } catch {
                try? await storage.close()
                throw error
            }
            try await storage.close()
        }
    }

    /// Runs `body` with the URL of a PostgreSQL database of its own, created for it and dropped
    /// afterwards, so what it does to tables (DDL, triggers, long locks) never touches another test.
    func withIsolatedDatabase(_ body: (String) async throws -> Void) async throws {
        guard let url = Self.postgresURL, let slash = url.lastIndex(of: "/") else {
            throw HarnessError("PWAKIT_TEST_POSTGRES_URL is not set")
        }
        let name = "pwakit_isolated_\(uniqueSuffix())"
        let admin = try await SQLStorage.postgres(url: url, maximumConnections: 1)
        _ = try await admin.driver.query("CREATE DATABASE \(name)", [])
        do {
            try await body(String(url[..<slash]) + "/" + name)
        } catch {
            _ = try? await admin.driver.query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", [])
            try? await admin.close()
            throw error
        }
        _ = try? await admin.driver.query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", [])
        try await admin.close()
    }
}
