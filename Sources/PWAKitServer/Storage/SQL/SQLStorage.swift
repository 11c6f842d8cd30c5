public import Foundation
import HTTPTypes

/// ``ServerStorage`` in SQL. The statements are shared; the engine is the driver underneath:
/// SQLite (``sqlite(path:logger:)``, the embedded default) or PostgreSQL (``postgres(url:logger:maximumConnections:)``).
public struct SQLStorage: ServerStorage {
    let driver: any SQLDriver

    init(driver: any SQLDriver) { self.driver = driver }

    /// `sqlite` or `postgres`.
    public var engineName: String { driver is SQLiteDriver ? "sqlite" : "postgres" }

    /// On PostgreSQL, whether the server offers TLS and whether this store's connection uses it; `nil` on SQLite.
    public func postgresTLS() async throws -> (offered: Bool, inUse: Bool)? {
        guard !(driver is SQLiteDriver) else { return nil }
        let row = try await driver.query(
            """
            SELECT current_setting('ssl') AS offered,
              CAST(COALESCE((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS TEXT) AS used
            """, []
        ).first
        return (try row?.text("offered") == "on", try row?.text("used") == "true")
    }

    /// See ``ServerStorage``.
    public func migrate() async throws { try await driver.runMigrations(Schema.migrations) }
    /// See ``ServerStorage``.
    public func close() async throws { try await driver.close() }

    // MARK: Users

    /// See ``ServerStorage``.
    public func insertUser(_ user: UserRecord) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO users (id, email, display_name, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT DO NOTHING RETURNING id
            """,
            [
                .text(user.id), .text(user.email), .text(user.displayName), .text(user.passwordHash), .text(user.role.rawValue),
                .date(user.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func user(email: String) async throws -> UserRecord? {
        try await driver.query("SELECT * FROM users WHERE email = $1", [.text(email)]).first.map(Self.userRecord)
    }

    /// See ``ServerStorage``.
    public func user(id: String) async throws -> UserRecord? {
        try await driver.query("SELECT * FROM users WHERE id = $1", [.text(id)]).first.map(Self.userRecord)
    }

    /// See ``ServerStorage``.
    public func updatePasswordHash(userId: String, from previous: String, to passwordHash: String) async throws -> Bool {
        let rows = try await driver.query(
            "UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2 RETURNING id",
            [.text(userId), .text(previous), .text(passwordHash)])
        return !rows.isEmpty
    }

    private static func userRecord(_ row: SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.text("id"), email: try row.text("email"), displayName: try row.text("display_name"),
            passwordHash: try row.text("password_hash"), role: UserRole(rawValue: try row.text("role")),
            createdAt: try row.date("created_at")
        )
    }

    // MARK: Launch codes

    /// See ``ServerStorage``.
    public func insertLaunchCode(_ code: LaunchCodeRecord) async throws {
        try await driver.execute(
            "INSERT INTO launch_codes (code_hash, user_id, app_id, bundle_hash, expires_at, used_at) VALUES ($1, $2, $3, $4, $5, NULL)",
            [.text(code.codeHash), .text(code.userId), .text(code.appId), .text(code.bundleHash), .date(code.expiresAt)]
        )
    }

    /// See ``ServerStorage``.
    public func redeemLaunchCode(codeHash: String, appId: String, now: Date) async throws -> LaunchCodeRecord? {
        let rows = try await driver.query(
            """
            UPDATE launch_codes SET used_at = $3
            WHERE code_hash = $1 AND app_id = $2 AND used_at IS NULL AND expires_at > $3
            RETURNING code_hash, user_id, app_id, bundle_hash, expires_at
            """,
            [.text(codeHash), .text(appId), .date(now)]
        )
        return try rows.first.map { row in
            LaunchCodeRecord(
                codeHash: try row.text("code_hash"), userId: try row.text("user_id"), appId: try row.text("app_id"),
                bundleHash: try row.text("bundle_hash"), expiresAt: try row.date("expires_at")
            )
        }
    }

    // MARK: Server keys

    /// See ``ServerStorage``.
    public func serverKey(purpose: String, candidate: String, now: Date) async throws -> String {
        try await driver.execute(
            "INSERT INTO server_keys (purpose, private_key, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [.text(purpose), .text(candidate), .date(now)]
        )
        guard let row = try await driver.query("SELECT private_key FROM server_keys WHERE purpose = $1", [.text(purpose)]).first
        else {
            throw StorageError(message: "server key \(purpose) vanished")
        }
        return try row.text("private_key")
    }

    /// See ``ServerStorage``.
    public func replaceServerKey(purpose: String, from previous: String, to stored: String) async throws -> Bool {
        try await !driver.query(
            "UPDATE server_keys SET private_key = $3 WHERE purpose = $1 AND private_key = $2 RETURNING purpose",
            [.text(purpose), .text(previous), .text(stored)]
        ).isEmpty
    }
}
