import Foundation

@testable import PWAKitServer

extension StorageEngine {
    /// Like ``withStorage(_:)``, but on PostgreSQL in a database of its own, created for the call and
    /// dropped after it: for tests whose statements reach every row (a purge), which on the shared
    /// database would race with other suites' rows and with real-time servers purging at start.
    func withIsolatedStorage(_ body: (SQLStorage) async throws -> Void) async throws {
        guard self == .postgres, let url = Self.postgresURL, let slash = url.lastIndex(of: "/") else {
            try await withStorage(body)
            return
        }
        let name = "pwakit_isolated_\(uniqueSuffix())"
        let admin = try await SQLStorage.postgres(url: url, maximumConnections: 1)
        _ = try await admin.driver.query("CREATE DATABASE \(name)", [])
        do {
            let storage = try await SQLStorage.postgres(url: String(url[..<slash]) + "/" + name, maximumConnections: 1)
            do { try await body(storage) } catch {
                try? await storage.close()
                throw error
            }
            try await storage.close()
        } catch {
            _ = try? await admin.driver.query("DROP DATABASE IF EXISTS \(name)", [])
            try? await admin.close()
            throw error
        }
        _ = try? await admin.driver.query("DROP DATABASE IF EXISTS \(name)", [])
        try await admin.close()
    }
}
