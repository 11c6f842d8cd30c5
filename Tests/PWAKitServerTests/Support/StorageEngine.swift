import Foundation
import NIOCore
import PWAKitServer

/// The storage engines a suite runs against: SQLite always, PostgreSQL when `PWAKIT_TEST_POSTGRES_URL` is set.
enum StorageEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["PWAKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether this run must reach PostgreSQL (`PWAKIT_TEST_REQUIRE_POSTGRES=1`, set by `scripts/test` in CI).
    static let postgresRequired = ProcessInfo.processInfo.environment["PWAKIT_TEST_REQUIRE_POSTGRES"] == "1"

    /// The key every test server wraps the token-signing key with: suites and server processes share
    /// one PostgreSQL database, so they must agree on it.
    static let testWrappingKey = Data(repeating: 0x5A, count: 32)

    /// The engines available in this run.
    static var available: [StorageEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var description: String { rawValue }

    func open() async throws -> SQLStorage {
        switch self {
        case .sqlite: return try await SQLStorage.sqlite(path: nil)
        case .postgres:
            guard let url = Self.postgresURL else { throw CancellationError() }
            // NB: suites run side by side, each with stores of their own; a small pool each keeps them all
            // under the database's connection limit (100 by default).
            return try await SQLStorage.postgres(url: url, maximumConnections: 3)
        }
    }
}

extension StorageEngine {
    /// Opens a store, runs `body`, and always closes the store.
    func withStorage(_ body: (SQLStorage) async throws -> Void) async throws {
        let storage = try await open()
        do {
            try await body(storage)
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }
}

/// A short random suffix so tests sharing one PostgreSQL database never collide.
func uniqueSuffix() -> String { String(UUID().uuidString.prefix(8)).lowercased() }
