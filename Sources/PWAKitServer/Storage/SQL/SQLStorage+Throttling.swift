public import Foundation

/// ``SQLStorage``: Throttle reservations and the purge of what no longer matters.
extension SQLStorage {
    private var rowIdentity: String { driver.rowIdentity }

    // MARK: Login throttling

    /// See ``ServerStorage``.
    public func recordLoginFailure(key: String, at: Date) async throws {
        try await driver.execute("INSERT INTO login_failures (throttle_key, failed_at) VALUES ($1, $2)", [.text(key), .date(at)])
    }

    /// See ``ServerStorage``.
    public func loginFailureCount(key: String, since: Date, until: Date) async throws -> Int {
        let rows = try await driver.query(
            "SELECT COUNT(*) AS n FROM login_failures WHERE throttle_key = $1 AND failed_at > $2 AND failed_at <= $3",
            [.text(key), .date(since), .date(until)]
        )
        return Int(try rows.first?.integer("n") ?? 0)
    }

    /// See ``ServerStorage``.
    public func clearLoginFailures(key: String) async throws {
        try await driver.execute("DELETE FROM login_failures WHERE throttle_key = $1", [.text(key)])
    }

    /// See ``ServerStorage``. One statement counts every key and inserts one row per key only when all
    /// are under their limits, under one exclusive lock shared by every throttle reservation.
    public func reserveAttempt(_ keys: [ThrottleKey], since: Date, now: Date) async throws -> Bool {
        guard !keys.isEmpty else { return true }
        var binds: [SQLValue] = [.date(since), .date(now)]
        var selects: [String] = []
        var conditions: [String] = []
        for throttle in keys {
            binds.append(.text(throttle.key))
            let key = "$\(binds.count)"
            binds.append(.integer(Int64(throttle.limit)))
            let limit = "$\(binds.count)"
            selects.append("SELECT CAST(\(key) AS TEXT) AS k")
            conditions.append(
                "(SELECT COUNT(*) FROM login_failures WHERE throttle_key = \(key) AND failed_at > $1 AND failed_at <= $2) < \(limit)"
            )
        }
        let rows = try await driver.query(
            """
            INSERT INTO login_failures (throttle_key, failed_at)
            SELECT k, $2 FROM (\(selects.joined(separator: " UNION ALL "))) AS keys
            WHERE \(conditions.joined(separator: " AND "))
            RETURNING throttle_key
            """, binds, exclusiveOn: "throttle")
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func purge(now: Date, throttleBefore: Date, knownBefore: Date) async throws -> Int {
        var removed = 0
        removed += try await driver.query(
            "DELETE FROM login_failures WHERE throttle_key NOT LIKE 'known:%' AND failed_at < $1 RETURNING throttle_key",
            [.date(throttleBefore)]
        ).count
        removed += try await driver.query(
            "DELETE FROM login_failures WHERE throttle_key LIKE 'known:%' AND failed_at < $1 RETURNING throttle_key",
            [.date(knownBefore)]
        ).count
        removed += try await driver.query(
            "DELETE FROM refresh_tokens WHERE expires_at < $1 RETURNING token_hash", [.date(now)]
        ).count
        removed += try await driver.query(
            "DELETE FROM launch_codes WHERE expires_at < $1 OR used_at IS NOT NULL RETURNING code_hash", [.date(now)]
        ).count
        removed += try await driver.query(
            "DELETE FROM identity_nonces WHERE expires_at < $1 RETURNING nonce", [.date(now)]
        ).count
        removed += try await driver.query(
            "DELETE FROM magic_links WHERE expires_at < $1 RETURNING token_hash", [.date(now)]
        ).count
        // NB: sign-in codes live a minute; an hour later nothing can use one, whatever its state.
        removed += try await driver.query(
            "DELETE FROM identity_qr_sessions WHERE expires_at < $1 RETURNING id", [.date(now.addingTimeInterval(-3600))]
        ).count
        return removed
    }

    /// See ``ServerStorage``.
    public func releaseAttempt(key: String, at: Date) async throws {
        // NB: rows of one key and time are indistinguishable; any one of them is the reservation.
        try await driver.execute(
            """
            DELETE FROM login_failures WHERE throttle_key = $1 AND failed_at = $2 AND \(rowIdentity) IN
            (SELECT \(rowIdentity) FROM login_failures WHERE throttle_key = $1 AND failed_at = $2 LIMIT 1)
            """, [.text(key), .date(at)])
    }
}
