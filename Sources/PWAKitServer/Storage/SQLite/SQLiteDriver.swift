import Foundation
import HTTPTypes
import Logging
import SQLiteNIO

/// Runs statements on one SQLite connection (WAL mode, foreign keys on, busy timeout set).
struct SQLiteDriver: SQLDriver {
    let connection: SQLiteConnection

    static func open(path: String?, logger: Logger) async throws -> SQLiteDriver {
        let storage: SQLiteConnection.Storage = path.map { .file(path: $0) } ?? .memory
        let connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        let driver = SQLiteDriver(connection: connection)
        if path != nil { try await driver.execute("PRAGMA journal_mode = WAL") }
        try await driver.execute("PRAGMA busy_timeout = 5000")
        try await driver.execute("PRAGMA synchronous = NORMAL")
        return driver
    }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let data = binds.map { value -> SQLiteData in
            switch value {
            case .text(let text): .text(text)
            case .integer(let number): .integer(SQLiteInt64(number))
            case .null: .null
            }
        }
        let rows = try await Self.retryingStaleSnapshots { try await connection.query(Self.sqliteDialect(sql), data) }
        return rows.map { row in
            var values: [String: SQLValue] = [:]
            for column in row.columns {
                switch column.data {
                case .integer(let number): values[column.name] = .integer(Int64(number))
                case .text(let text): values[column.name] = .text(text)
                case .float(let number): values[column.name] = .integer(Int64(number))
                case .blob(let buffer): values[column.name] = .text(String(buffer: buffer))
                case .null: values[column.name] = .null
                }
            }
            return SQLRow(values: values)
        }
    }

    /// Runs `statement` again when another process committed between the moment it took its read
    /// snapshot and the moment it asked for the write lock (`SQLITE_BUSY_SNAPSHOT`, or a WAL being
    /// recovered): SQLite returns that at once, without the busy timeout. Every statement here is
    /// its own transaction (migrations hold the write lock from `BEGIN IMMEDIATE`), so the failed
    /// one changed nothing and running it again is safe. Seen with several workers on one file.
    static func retryingStaleSnapshots<T>(_ statement: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await statement()
            } catch let error as SQLiteError where error.reason == .busyInSnapshot || error.reason == .busyInRecovery {
                attempt += 1
                guard attempt < 100 else { throw error }
                // NB: a short wait that grows, so writers that keep colliding spread out.
                try await Task.sleep(for: .microseconds(Int.random(in: 50...(200 * min(attempt, 20)))))
            }
        }
    }

    /// SQLite's row id.
    var rowIdentity: String { "rowid" }

    /// SQLite has no row locks: one writer at a time.
    var supportsSkipLocked: Bool { false }

    func query(_ sql: String, _ binds: [SQLValue], exclusiveOn key: String) async throws -> [SQLRow] {
        // NB: one connection runs one statement at a time, and SQLite lets one writer in at a time.
        try await query(sql, binds)
    }

    func runMigrations(_ migrations: [(version: Int, statements: [String])]) async throws {
        try await execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)")
        let applied = Set(try await query("SELECT version FROM schema_migrations", []).map { try $0.integer("version") })
        for migration in migrations where !applied.contains(Int64(migration.version)) {
            try await execute("BEGIN IMMEDIATE")
            do {
                // NB: another process may have applied it while this one waited for the write lock.
                let done = try await query(
                    "SELECT 1 AS applied FROM schema_migrations WHERE version = $1", [.integer(Int64(migration.version))])
                if !done.isEmpty {
                    try await execute("COMMIT")
                    continue
                }
                for statement in migration.statements { try await execute(statement) }
                try await execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                    [.integer(Int64(migration.version)), .date(Date())])
                try await execute("COMMIT")
            } catch {
                _ = try? await execute("ROLLBACK")
                throw error
            }
        }
    }

    func close() async throws { try await connection.close() }

    /// Rewrites `$N` placeholders to SQLite's `?N`.
    static func sqliteDialect(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count)
        var previousWasDollar = false
        for character in sql {
            if previousWasDollar {
                result.append(character.isNumber ? "?" : "$")
                previousWasDollar = false
            }
            if character == "$" {
                previousWasDollar = true
                continue
            }
            result.append(character)
        }
        if previousWasDollar { result.append("$") }
        return result
    }
}
