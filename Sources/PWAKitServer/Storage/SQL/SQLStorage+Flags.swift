import Foundation

extension SQLStorage {
    /// See ``ServerStorage``.
    public func setFlag(_ flag: FlagRecord) async throws {
        _ = try await driver.query(
            """
            INSERT INTO flags (app_id, flag_key, value, rollout_percent, updated_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (app_id, flag_key) DO UPDATE SET value = excluded.value, rollout_percent = excluded.rollout_percent, \
            updated_at = excluded.updated_at
            """,
            [
                .text(flag.appId), .text(flag.key), .text(flag.value), .integer(Int64(flag.rolloutPercent)),
                .date(flag.updatedAt),
            ])
    }

    /// See ``ServerStorage``.
    public func deleteFlag(appId: String, key: String) async throws -> Bool {
        try await !driver.query(
            "DELETE FROM flags WHERE app_id = $1 AND flag_key = $2 RETURNING flag_key", [.text(appId), .text(key)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func flags() async throws -> [FlagRecord] {
        try await driver.query("SELECT * FROM flags ORDER BY app_id, flag_key", []).map { row in
            FlagRecord(
                appId: try row.text("app_id"), key: try row.text("flag_key"), value: try row.text("value"),
                rolloutPercent: Int(try row.integer("rollout_percent")), updatedAt: try row.date("updated_at"))
        }
    }
}
