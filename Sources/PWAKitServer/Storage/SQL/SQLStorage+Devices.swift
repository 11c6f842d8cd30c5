import Foundation

extension SQLStorage {
    /// See ``ServerStorage``.
    public func upsertDevice(_ device: DeviceRecord) async throws {
        _ = try await driver.query(
            """
            INSERT INTO devices (token, user_id, platform, environment, updated_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform, \
            environment = excluded.environment, updated_at = excluded.updated_at
            """,
            [
                .text(device.token), .text(device.userId), .text(device.platform), .text(device.environment),
                .date(device.updatedAt),
            ])
    }

    /// See ``ServerStorage``.
    public func deleteDevice(token: String, userId: String?) async throws -> Bool {
        if let userId {
            return try await !driver.query(
                "DELETE FROM devices WHERE token = $1 AND user_id = $2 RETURNING token", [.text(token), .text(userId)]
            ).isEmpty
        }
        return try await !driver.query("DELETE FROM devices WHERE token = $1 RETURNING token", [.text(token)]).isEmpty
    }

    /// See ``ServerStorage``.
    public func devices(userId: String) async throws -> [DeviceRecord] {
        try await driver.query("SELECT * FROM devices WHERE user_id = $1 ORDER BY updated_at DESC, token", [.text(userId)]).map {
            row in
            DeviceRecord(
                token: try row.text("token"), userId: try row.text("user_id"), platform: try row.text("platform"),
                environment: try row.text("environment"), updatedAt: try row.date("updated_at"))
        }
    }
}
