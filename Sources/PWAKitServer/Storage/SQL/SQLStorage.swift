public import Foundation
import HTTPTypes

/// ``ServerStorage`` in SQL. The statements are shared; the engine is the driver underneath:
/// SQLite (``sqlite(path:logger:)``, the embedded default) or PostgreSQL (``postgres(url:logger:maximumConnections:)``).
public struct SQLStorage: ServerStorage {
    let driver: any SQLDriver

    init(driver: any SQLDriver) { self.driver = driver }

    private var rowIdentity: String { driver.rowIdentity }

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

    // MARK: Refresh tokens

    /// See ``ServerStorage``.
    public func insertRefreshToken(
        tokenHash: String, familyId: String, userId: String, issuedAt: Date, expiresAt: Date, newFamily: Bool
    ) async throws {
        if newFamily {
            try await driver.execute(
                "INSERT INTO refresh_families (id, user_id, created_at, revoked_at) VALUES ($1, $2, $3, NULL)",
                [.text(familyId), .text(userId), .date(issuedAt)]
            )
        }
        try await driver.execute(
            """
            INSERT INTO refresh_tokens (token_hash, family_id, user_id, issued_at, expires_at, used_at)
            VALUES ($1, $2, $3, $4, $5, NULL)
            """,
            [.text(tokenHash), .text(familyId), .text(userId), .date(issuedAt), .date(expiresAt)]
        )
    }

    /// See ``ServerStorage``.
    public func rotateRefreshToken(
        tokenHash: String, successor: String, expiresAt: Date, now: Date, address: String, grace: TimeInterval
    ) async throws -> RefreshConsumption {
        if let owner = try await rotate(tokenHash, to: successor, expiresAt: expiresAt, now: now, address: address) {
            return .rotated(familyId: owner.familyId, userId: owner.userId)
        }
        guard
            let existing = try await driver.query("SELECT * FROM refresh_tokens WHERE token_hash = $1", [.text(tokenHash)]).first
        else {
            return .unknown
        }
        let familyId = try existing.text("family_id")
        if existing.isNull("used_at"), try existing.date("expires_at") <= now {
            let revoked = try await driver.query("SELECT revoked_at FROM refresh_families WHERE id = $1", [.text(familyId)])
            if revoked.first?.isNull("revoked_at") ?? false { return .expired }
        }
        // NB: a retry after a lost response: the same client, within seconds, while what it was sent is
        // still unused. Rotating that successor ends it, so whoever might hold it holds nothing.
        if grace > 0, let usedAt = try existing.optionalDate("used_at"), now.timeIntervalSince(usedAt) <= grace,
            try existing.optionalText("used_by") == address, let issued = try existing.optionalText("replaced_by"),
            let owner = try await rotate(issued, to: successor, expiresAt: expiresAt, now: now, address: address)
        {
            try await driver.execute(
                "UPDATE refresh_tokens SET replaced_by = $2 WHERE token_hash = $1", [.text(tokenHash), .text(successor)])
            return .retried(familyId: owner.familyId, userId: owner.userId)
        }
        try await revokeRefreshFamily(familyId: familyId, now: now)
        return .reused(familyId: familyId)
    }

    /// Stores `successor` in the family of `tokenHash` when that token is current, then marks it used; the
    /// family and user when it was this call that used it. One that loses the race deletes its successor.
    private func rotate(_ tokenHash: String, to successor: String, expiresAt: Date, now: Date, address: String) async throws
        -> (familyId: String, userId: String)?
    {
        let current =
            "used_at IS NULL AND expires_at > $2 AND family_id IN (SELECT id FROM refresh_families WHERE revoked_at IS NULL)"
        let stored = try await driver.query(
            """
            INSERT INTO refresh_tokens (token_hash, family_id, user_id, issued_at, expires_at, used_at)
            SELECT $3, family_id, user_id, $2, $4, NULL FROM refresh_tokens WHERE token_hash = $1 AND \(current)
            RETURNING family_id
            """,
            [.text(tokenHash), .date(now), .text(successor), .date(expiresAt)])
        guard !stored.isEmpty else { return nil }
        // NB: one conditional UPDATE decides the race between two presentations of the same token.
        let used = try await driver.query(
            """
            UPDATE refresh_tokens SET used_at = $2, used_by = $3, replaced_by = $4
            WHERE token_hash = $1 AND \(current)
            RETURNING family_id, user_id
            """,
            [.text(tokenHash), .date(now), .text(address), .text(successor)])
        guard let row = used.first else {
            try await driver.execute("DELETE FROM refresh_tokens WHERE token_hash = $1", [.text(successor)])
            return nil
        }
        return (try row.text("family_id"), try row.text("user_id"))
    }

    /// See ``ServerStorage``.
    public func revokeRefreshFamily(familyId: String, now: Date) async throws {
        try await driver.execute(
            "UPDATE refresh_families SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
            [.text(familyId), .date(now)]
        )
    }

    /// See ``ServerStorage``.
    public func refreshFamilyIsActive(familyId: String) async throws -> Bool {
        try await !driver.query(
            "SELECT id FROM refresh_families WHERE id = $1 AND revoked_at IS NULL", [.text(familyId)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func catalogRevision(ifFamilyIsActive familyId: String) async throws -> Int64? {
        try await driver.query(
            "SELECT (SELECT COUNT(*) FROM apps) AS revision FROM refresh_families WHERE id = $1 AND revoked_at IS NULL",
            [.text(familyId)]
        ).first?.integer("revision")
    }

    /// See ``ServerStorage``.
    public func refreshTokenOwner(tokenHash: String) async throws -> (familyId: String, userId: String)? {
        guard
            let row = try await driver.query(
                "SELECT family_id, user_id FROM refresh_tokens WHERE token_hash = $1", [.text(tokenHash)]
            ).first
        else {
            return nil
        }
        return (try row.text("family_id"), try row.text("user_id"))
    }

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

    // MARK: Catalog

    /// See ``ServerStorage``.
    public func insertApp(_ app: AppRecord) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO apps (id, name, description, icon, entry_path, permissions, channels, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id
            """,
            [
                .text(app.id), .text(app.name), .text(app.description), .text(app.icon), .text(app.entryPath),
                .text(try Self.jsonList(app.permissions)), .text(try Self.jsonList(app.channels)), .date(app.createdAt),
            ]
        )
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func app(id: String) async throws -> AppRecord? {
        try await driver.query("SELECT * FROM apps WHERE id = $1", [.text(id)]).first.map(Self.appRecord)
    }

    /// See ``ServerStorage``.
    public func apps() async throws -> [AppRecord] {
        try await driver.query("SELECT * FROM apps ORDER BY id", []).map(Self.appRecord)
    }

    private static func appRecord(_ row: SQLRow) throws -> AppRecord {
        AppRecord(
            id: try row.text("id"), name: try row.text("name"), description: try row.text("description"),
            icon: try row.text("icon"),
            entryPath: try row.text("entry_path"), permissions: try parseList(row.text("permissions")),
            channels: try parseList(row.text("channels")), createdAt: try row.date("created_at")
        )
    }

    private static func jsonList(_ values: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    }

    private static func parseList(_ text: String) throws -> [String] {
        guard let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String] else {
            throw StorageError.corrupt("list")
        }
        return list
    }

    /// See ``ServerStorage``.
    public func insertPublisherKey(_ key: PublisherKeyRecord) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO publisher_keys (app_id, key_id, public_key, added_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING RETURNING key_id
            """,
            [.text(key.appId), .text(key.keyId), .text(key.publicKey), .date(key.addedAt)]
        )
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func publisherKeys(appId: String) async throws -> [PublisherKeyRecord] {
        try await driver.query("SELECT * FROM publisher_keys WHERE app_id = $1 ORDER BY key_id", [.text(appId)]).map { row in
            try Self.publisherKeyRecord(row)
        }
    }

    private static func publisherKeyRecord(_ row: SQLRow) throws -> PublisherKeyRecord {
        PublisherKeyRecord(
            appId: try row.text("app_id"), keyId: try row.text("key_id"), publicKey: try row.text("public_key"),
            addedAt: try row.date("added_at"), revokedAt: try row.optionalDate("revoked_at"))
    }

    /// See ``ServerStorage``.
    public func revokePublisherKey(appId: String, keyId: String, now: Date) async throws -> PublisherKeyRecord? {
        try await driver.execute(
            "UPDATE publisher_keys SET revoked_at = $3 WHERE app_id = $1 AND key_id = $2 AND revoked_at IS NULL",
            [.text(appId), .text(keyId), .date(now)])
        return try await driver.query(
            "SELECT * FROM publisher_keys WHERE app_id = $1 AND key_id = $2", [.text(appId), .text(keyId)]
        ).first.map(Self.publisherKeyRecord)
    }

    /// See ``ServerStorage``.
    public func insertAppCredential(_ credential: AppCredentialRecord) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO app_credentials (credential_id, app_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING RETURNING credential_id
            """,
            [.text(credential.credentialId), .text(credential.appId), .text(credential.secretHash), .date(credential.createdAt)]
        )
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func appCredential(id: String) async throws -> AppCredentialRecord? {
        try await driver.query("SELECT * FROM app_credentials WHERE credential_id = $1", [.text(id)]).first.map(
            Self.credentialRecord)
    }

    /// See ``ServerStorage``.
    public func appCredentials(appId: String) async throws -> [AppCredentialRecord] {
        try await driver.query(
            "SELECT * FROM app_credentials WHERE app_id = $1 ORDER BY created_at, credential_id", [.text(appId)]
        ).map(Self.credentialRecord)
    }

    /// See ``ServerStorage``.
    public func revokeAppCredential(appId: String, credentialId: String, now: Date) async throws -> AppCredentialRecord? {
        try await driver.execute(
            "UPDATE app_credentials SET revoked_at = $3 WHERE app_id = $1 AND credential_id = $2 AND revoked_at IS NULL",
            [.text(appId), .text(credentialId), .date(now)])
        return try await driver.query(
            "SELECT * FROM app_credentials WHERE app_id = $1 AND credential_id = $2", [.text(appId), .text(credentialId)]
        ).first.map(Self.credentialRecord)
    }

    private static func credentialRecord(_ row: SQLRow) throws -> AppCredentialRecord {
        AppCredentialRecord(
            credentialId: try row.text("credential_id"), appId: try row.text("app_id"), secretHash: try row.text("secret_hash"),
            createdAt: try row.date("created_at"), revokedAt: try row.optionalDate("revoked_at"))
    }

    // MARK: Publishing rights

    /// See ``ServerStorage``.
    public func grantPublisher(appId: String, userId: String, now: Date) async throws -> Bool {
        try await !driver.query(
            "INSERT INTO app_publishers (app_id, user_id, granted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING app_id",
            [.text(appId), .text(userId), .date(now)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func revokePublisher(appId: String, userId: String) async throws -> Bool {
        try await !driver.query(
            "DELETE FROM app_publishers WHERE app_id = $1 AND user_id = $2 RETURNING app_id", [.text(appId), .text(userId)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func publishers(appId: String) async throws -> [AppPublisherRecord] {
        try await driver.query(
            """
            SELECT p.app_id, p.user_id, u.email, p.granted_at FROM app_publishers p JOIN users u ON u.id = p.user_id
            WHERE p.app_id = $1 ORDER BY u.email
            """, [.text(appId)]
        ).map { row in
            AppPublisherRecord(
                appId: try row.text("app_id"), userId: try row.text("user_id"), email: try row.text("email"),
                grantedAt: try row.date("granted_at"))
        }
    }

    /// See ``ServerStorage``.
    public func isPublisher(userId: String, appId: String?) async throws -> Bool {
        if let appId {
            return try await !driver.query(
                "SELECT app_id FROM app_publishers WHERE user_id = $1 AND app_id = $2", [.text(userId), .text(appId)]
            ).isEmpty
        }
        return try await !driver.query("SELECT app_id FROM app_publishers WHERE user_id = $1 LIMIT 1", [.text(userId)]).isEmpty
    }

    // MARK: Releases

    /// See ``ServerStorage``.
    public func insertReleaseMovingForward(_ release: ReleaseRecord) async throws -> Bool {
        // NB: the check and the insert are one statement, and publishes to one (app, channel) take turns,
        // so a lower version can never land after a higher one that committed while it was being checked.
        let rows = try await driver.query(
            """
            INSERT INTO releases (app_id, channel, version, version_key, bundle_hash, manifest, key_id, signature, rollout_percent, created_at)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
            WHERE NOT EXISTS (SELECT 1 FROM releases WHERE app_id = $1 AND channel = $2 AND version_key >= $4)
            ON CONFLICT DO NOTHING RETURNING version
            """,
            [
                .text(release.appId), .text(release.channel), .text(release.version), .integer(release.versionKey),
                .text(release.bundleHash),
                .text(release.manifest.base64EncodedString()), .text(release.keyId), .text(release.signature),
                .integer(Int64(release.rolloutPercent)), .date(release.createdAt),
            ],
            exclusiveOn: "release-channel:\(release.appId)/\(release.channel)"
        )
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func newestVersionKey(appId: String, channel: String) async throws -> Int64? {
        let row = try await driver.query(
            "SELECT MAX(version_key) AS newest FROM releases WHERE app_id = $1 AND channel = $2", [.text(appId), .text(channel)]
        ).first
        return row.flatMap { $0.isNull("newest") ? nil : try? $0.integer("newest") }
    }

    /// See ``ServerStorage``.
    public func releases(appId: String, channel: String) async throws -> [ReleaseRecord] {
        try await driver.query(
            "SELECT * FROM releases WHERE app_id = $1 AND channel = $2 AND withdrawn_at IS NULL ORDER BY version_key DESC",
            [.text(appId), .text(channel)]
        ).map(Self.releaseRecord)
    }

    /// See ``ServerStorage``.
    public func release(appId: String, bundleHash: String) async throws -> ReleaseRecord? {
        try await driver.query(
            "SELECT * FROM releases WHERE app_id = $1 AND bundle_hash = $2 AND withdrawn_at IS NULL ORDER BY version_key DESC",
            [.text(appId), .text(bundleHash)]
        ).first.map(Self.releaseRecord)
    }

    /// See ``ServerStorage``.
    public func withdrawReleases(appId: String, keyId: String, now: Date) async throws -> Int {
        try await driver.query(
            "UPDATE releases SET withdrawn_at = $3 WHERE app_id = $1 AND key_id = $2 AND withdrawn_at IS NULL RETURNING version",
            [.text(appId), .text(keyId), .date(now)]
        ).count
    }

    /// See ``ServerStorage``.
    public func setRollout(appId: String, channel: String, versionKey: Int64, percent: Int) async throws -> Bool {
        let rows = try await driver.query(
            "UPDATE releases SET rollout_percent = $4 WHERE app_id = $1 AND channel = $2 AND version_key = $3 RETURNING version",
            [.text(appId), .text(channel), .integer(versionKey), .integer(Int64(percent))]
        )
        return !rows.isEmpty
    }

    private static func releaseRecord(_ row: SQLRow) throws -> ReleaseRecord {
        guard let manifest = Data(base64Encoded: try row.text("manifest")) else { throw StorageError.corrupt("manifest") }
        return ReleaseRecord(
            appId: try row.text("app_id"), channel: try row.text("channel"), version: try row.text("version"),
            versionKey: try row.integer("version_key"), bundleHash: try row.text("bundle_hash"), manifest: manifest,
            keyId: try row.text("key_id"), signature: try row.text("signature"),
            rolloutPercent: Int(try row.integer("rollout_percent")),
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
