import Foundation
import HTTPTypes
import Logging
import NIOCore
import PostgresNIO

/// Runs statements on a PostgreSQL connection pool.
struct PostgresDriver: SQLDriver {
    let client: PostgresClient
    let logger: Logger
    /// The task running the pool; cancelling it closes the connections.
    let runner: Task<Void, Never>
    /// PostgreSQL's physical row id.
    var rowIdentity: String { "ctid" }
    /// PostgreSQL skips rows other transactions hold.
    var supportsSkipLocked: Bool { true }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await Self.rows(of: try await client.query(Self.statement(sql, binds), logger: logger))
    }

    func query(_ sql: String, _ binds: [SQLValue], exclusiveOn key: String) async throws -> [SQLRow] {
        // NB: a transaction-scoped advisory lock; under READ COMMITTED the statement after it takes a fresh
        // snapshot, so it sees whatever the previous holder committed.
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                _ = try await Self.rows(
                    of: try await connection.query(
                        Self.statement("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text(key)]), logger: logger))
                let rows = try await Self.rows(of: try await connection.query(Self.statement(sql, binds), logger: logger))
                try await connection.query("COMMIT", logger: logger)
                return rows
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    private static func statement(_ sql: String, _ binds: [SQLValue]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .null: bindings.appendNull()
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    private static func rows(of sequence: PostgresRowSequence) async throws -> [SQLRow] {
        var rows: [SQLRow] = []
        for try await row in sequence {
            var values: [String: SQLValue] = [:]
            for cell in row {
                values[cell.columnName] = try Self.value(of: cell)
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8: return .integer(try cell.decode(Int64.self))
        case .int4: return .integer(Int64(try cell.decode(Int32.self)))
        case .int2: return .integer(Int64(try cell.decode(Int16.self)))
        default: return .text(try cell.decode(String.self))
        }
    }

    func runMigrations(_ migrations: [(version: Int, statements: [String])]) async throws {
        // NB: an advisory lock on one connection serialises replicas that start together.
        try await client.withConnection { connection in
            _ = try await connection.query("SELECT pg_advisory_lock(727561)", logger: logger)
            do {
                try await Self.apply(migrations, on: connection, logger: logger)
                _ = try await connection.query("SELECT pg_advisory_unlock(727561)", logger: logger)
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(727561)", logger: logger)
                throw error
            }
        }
    }

    private static func apply(
        _ migrations: [(version: Int, statements: [String])], on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
            logger: logger)
        var applied = Set<Int>()
        for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger).decode(
            Int32.self)
        {
            applied.insert(Int(version))
        }
        for migration in migrations where !applied.contains(migration.version) {
            try await connection.query("BEGIN", logger: logger)
            do {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                var binds = PostgresBindings()
                binds.append(Int32(migration.version))
                binds.append(Int64(Date().timeIntervalSince1970 * 1000))
                try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", binds: binds),
                    logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    func close() async throws {
        runner.cancel()
        await runner.value
    }
}
