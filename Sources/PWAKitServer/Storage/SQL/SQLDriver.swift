/// The minimal database access both engines provide: parameterised statements in, rows out.
///
/// Statements are written once with PostgreSQL placeholders (`$1`, `$2`, …); the SQLite driver
/// rewrites them to SQLite's numbered form (`?1`, `?2`, …). Values are never spliced into SQL.
protocol SQLDriver: Sendable {
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// Runs one statement while holding an exclusive lock named `key`: statements under the same key,
    /// from every replica sharing the database, run one after another and each sees the ones before it.
    func query(_ sql: String, _ binds: [SQLValue], exclusiveOn key: String) async throws -> [SQLRow]
    /// Runs the migration statements once per database, serialised against other replicas.
    func runMigrations(_ migrations: [(version: Int, statements: [String])]) async throws
    func close() async throws
    /// The column naming a physical row (`rowid` in SQLite, `ctid` in PostgreSQL), for tables without a key.
    var rowIdentity: String { get }
    /// Whether `SELECT … FOR UPDATE SKIP LOCKED` exists (PostgreSQL; SQLite has one writer at a time instead).
    var supportsSkipLocked: Bool { get }
}

extension SQLDriver {
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLValue] = []) async throws -> [SQLRow] {
        try await query(sql, binds)
    }
}
