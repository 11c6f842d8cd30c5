import HTTPTypes
import Foundation

/// A value bound to or read from a SQL statement; the storage uses only these three kinds.
enum SQLValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case null

    static func date(_ date: Date) -> SQLValue { .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
    static func optionalDate(_ date: Date?) -> SQLValue { date.map(SQLValue.date) ?? .null }
}

/// One result row, by column name.
struct SQLRow: Sendable {
    var values: [String: SQLValue]

    func text(_ column: String) throws -> String {
        guard case .text(let value) = values[column] else { throw StorageError.corrupt(column) }
        return value
    }

    func integer(_ column: String) throws -> Int64 {
        guard case .integer(let value) = values[column] else { throw StorageError.corrupt(column) }
        return value
    }

    func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: Double(try integer(column)) / 1000)
    }

    func isNull(_ column: String) -> Bool {
        if case .null = values[column] { return true }
        return values[column] == nil
    }
}

/// A failure of the storage layer itself (not of the caller's input).
struct StorageError: Error, CustomStringConvertible {
    let message: String
    static func corrupt(_ column: String) -> StorageError { StorageError(message: "unexpected value in column \(column)") }
    var description: String { "storage: \(message)" }
}

/// The minimal database access both engines provide: parameterised statements in, rows out.
///
/// Statements are written once with PostgreSQL placeholders (`$1`, `$2`, …); the SQLite driver
/// rewrites them to SQLite's numbered form (`?1`, `?2`, …). Values are never spliced into SQL.
protocol SQLDriver: Sendable {
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// Runs the migration statements once per database, serialised against other replicas.
    func runMigrations(_ migrations: [(version: Int, statements: [String])]) async throws
    func close() async throws
}

extension SQLDriver {
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        try await query(sql, binds)
    }
}
