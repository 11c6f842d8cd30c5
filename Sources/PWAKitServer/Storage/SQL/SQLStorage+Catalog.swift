public import Foundation

/// ``SQLStorage``: Apps, their publisher keys, backend credentials and publishers.
extension SQLStorage {
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
}
