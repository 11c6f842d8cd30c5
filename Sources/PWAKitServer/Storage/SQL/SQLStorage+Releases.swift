public import Foundation

/// ``SQLStorage``: Releases, moving each channel forward only.
extension SQLStorage {
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
}
