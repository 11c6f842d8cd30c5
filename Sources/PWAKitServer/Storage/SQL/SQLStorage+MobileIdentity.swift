public import Foundation

/// ``SQLStorage``: enrolled devices, proof nonces, PIN attempts, mobile-authentication transactions.
extension SQLStorage {
    // MARK: Enrolled devices

    /// See ``ServerStorage``. The count and the insert are one statement under one exclusive lock, so
    /// parallel enrolments never pass the limit together.
    public func enrolDevice(_ device: EnrolledDeviceRecord, limit: Int) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO identity_devices (id, user_id, name, device_key, pin_key, biometric_key, pin_failures, pin_version, \
            created_at, last_used_at, revoked_at, revoked_reason)
            SELECT $1, $2, $3, $4, $5, NULL, 0, 1, $6, NULL, NULL, NULL
            WHERE (SELECT COUNT(*) FROM identity_devices WHERE user_id = $2 AND revoked_at IS NULL) < $7
            RETURNING id
            """,
            [
                .text(device.id), .text(device.userId), .text(device.name), .text(device.deviceKey), .text(device.pinKey),
                .date(device.createdAt), .integer(Int64(limit)),
            ], exclusiveOn: "identity-devices")
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func enrolledDevice(id: String) async throws -> EnrolledDeviceRecord? {
        try await driver.query("SELECT * FROM identity_devices WHERE id = $1", [.text(id)]).first.map(Self.enrolledDevice)
    }

    /// See ``ServerStorage``.
    public func enrolledDevices(userId: String) async throws -> [EnrolledDeviceRecord] {
        try await driver.query(
            "SELECT * FROM identity_devices WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id", [.text(userId)]
        ).map(Self.enrolledDevice)
    }

    /// See ``ServerStorage``.
    public func revokeEnrolledDevice(id: String, userId: String?, reason: String, now: Date) async throws -> Bool {
        let rows = try await driver.query(
            """
            UPDATE identity_devices SET revoked_at = $3, revoked_reason = $4
            WHERE id = $1 AND revoked_at IS NULL AND ($2 = '' OR user_id = $2) RETURNING id
            """, [.text(id), .text(userId ?? ""), .date(now), .text(reason)])
        // NB: sessions are ended after the device, and again on every call, so a crash between the two is mended by a retry.
        try await driver.execute(
            "UPDATE refresh_families SET revoked_at = $2 WHERE device_id = $1 AND revoked_at IS NULL", [.text(id), .date(now)])
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func useProofNonce(deviceId: String, nonce: String, expiresAt: Date, now: Date, touch: Bool) async throws -> Bool {
        let rows = try await driver.query(
            """
            INSERT INTO identity_nonces (device_id, nonce, expires_at) VALUES ($1, $2, $3)
            ON CONFLICT DO NOTHING RETURNING nonce
            """, [.text(deviceId), .text(nonce), .date(expiresAt)])
        guard !rows.isEmpty else { return false }
        guard touch else { return true }
        try await driver.execute(
            "UPDATE identity_devices SET last_used_at = $2 WHERE id = $1", [.text(deviceId), .date(now)])
        return true
    }

    /// See ``ServerStorage``.
    public func reservePINAttempt(deviceId: String, limit: Int) async throws -> Int? {
        let rows = try await driver.query(
            """
            UPDATE identity_devices SET pin_failures = pin_failures + 1
            WHERE id = $1 AND revoked_at IS NULL AND pin_failures < $2 RETURNING pin_failures
            """, [.text(deviceId), .integer(Int64(limit))])
        return try rows.first.map { Int(try $0.integer("pin_failures")) }
    }

    /// See ``ServerStorage``.
    public func settlePINAttempt(deviceId: String, right: Bool, limit: Int, now: Date) async throws -> Bool {
        if right {
            return try await !driver.query(
                "UPDATE identity_devices SET pin_failures = 0 WHERE id = $1 AND revoked_at IS NULL RETURNING id",
                [.text(deviceId)]
            ).isEmpty
        }
        let exhausted = try await driver.query(
            """
            UPDATE identity_devices SET revoked_at = $2, revoked_reason = 'pin_attempts'
            WHERE id = $1 AND revoked_at IS NULL AND pin_failures >= $3 RETURNING id
            """, [.text(deviceId), .date(now), .integer(Int64(limit))])
        if !exhausted.isEmpty {
            try await driver.execute(
                "UPDATE refresh_families SET revoked_at = $2 WHERE device_id = $1 AND revoked_at IS NULL",
                [.text(deviceId), .date(now)])
            return false
        }
        return try await !driver.query(
            "SELECT id FROM identity_devices WHERE id = $1 AND revoked_at IS NULL", [.text(deviceId)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func setAuthenticatorKey(deviceId: String, kind: String, publicKey: String?) async throws -> Bool {
        // NB: a new PIN key also counts the PIN's version, so a device that crashed mid-change can tell which PIN is current.
        let change = kind == "pin" ? "pin_key = $2, pin_version = pin_version + 1" : "biometric_key = $2"
        return try await !driver.query(
            "UPDATE identity_devices SET \(change) WHERE id = $1 AND revoked_at IS NULL RETURNING id",
            [.text(deviceId), publicKey.map(SQLValue.text) ?? .null]
        ).isEmpty
    }

    // MARK: Transactions

    /// See ``ServerStorage``.
    public func insertIdentityTransaction(_ transaction: IdentityTransactionRecord, now: Date) async throws -> Bool {
        try await driver.execute(
            "UPDATE identity_transactions SET status = 'expired' WHERE user_id = $1 AND status = 'pending' AND expires_at <= $2",
            [.text(transaction.userId), .date(now)])
        let rows = try await driver.query(
            """
            INSERT INTO identity_transactions (id, user_id, app_id, message, data, requester_address, requester_agent, \
            number, nonce, status, reason, answered, authenticator, assertion, device_id, created_at, expires_at, \
            decided_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', NULL, 0, NULL, NULL, NULL, $10, $11, NULL)
            ON CONFLICT DO NOTHING RETURNING id
            """,
            [
                .text(transaction.id), .text(transaction.userId), .text(transaction.appId), .text(transaction.message),
                transaction.data.map(SQLValue.text) ?? .null, .text(transaction.requesterAddress),
                .text(transaction.requesterAgent), .integer(Int64(transaction.number)), .text(transaction.nonce),
                .date(transaction.createdAt), .date(transaction.expiresAt),
            ])
        return !rows.isEmpty
    }

    /// See ``ServerStorage``.
    public func identityTransaction(id: String) async throws -> IdentityTransactionRecord? {
        try await driver.query("SELECT * FROM identity_transactions WHERE id = $1", [.text(id)]).first.map(Self.transaction)
    }

    /// See ``ServerStorage``.
    public func pendingIdentityTransactions(userId: String, now: Date) async throws -> [IdentityTransactionRecord] {
        try await driver.query(
            """
            SELECT * FROM identity_transactions WHERE user_id = $1 AND status = 'pending' AND answered = 0 \
            AND expires_at > $2 ORDER BY created_at, id
            """, [.text(userId), .date(now)]
        ).map(Self.transaction)
    }

    /// See ``ServerStorage``.
    public func takeTransactionAnswer(id: String, now: Date) async throws -> Bool {
        try await !driver.query(
            """
            UPDATE identity_transactions SET answered = 1
            WHERE id = $1 AND status = 'pending' AND answered = 0 AND expires_at > $2 RETURNING id
            """, [.text(id), .date(now)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func finishIdentityTransaction(
        id: String, status: String, reason: String?, authenticator: String?, assertion: String?, deviceId: String?, now: Date
    ) async throws {
        try await driver.execute(
            """
            UPDATE identity_transactions SET status = $2, reason = $3, authenticator = $4, assertion = $5, device_id = $6, \
            decided_at = $7 WHERE id = $1 AND status = 'pending'
            """,
            [
                .text(id), .text(status), reason.map(SQLValue.text) ?? .null, authenticator.map(SQLValue.text) ?? .null,
                assertion.map(SQLValue.text) ?? .null, deviceId.map(SQLValue.text) ?? .null, .date(now),
            ])
    }

    /// See ``ServerStorage``.
    public func expireIdentityTransaction(id: String, now: Date) async throws {
        try await driver.execute(
            "UPDATE identity_transactions SET status = 'expired' WHERE id = $1 AND status = 'pending' AND expires_at <= $2",
            [.text(id), .date(now)])
    }

    /// See ``ServerStorage``.
    public func recordFraudReport(userId: String, transactionId: String, at: Date, mutedUntil: Date) async throws {
        try await driver.execute(
            """
            INSERT INTO identity_fraud_reports (transaction_id, user_id, reported_at, muted_until) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING
            """, [.text(transactionId), .text(userId), .date(at), .date(mutedUntil)])
    }

    /// See ``ServerStorage``.
    public func mutedUntil(userId: String) async throws -> Date? {
        try await driver.query(
            "SELECT muted_until FROM identity_fraud_reports WHERE user_id = $1 ORDER BY muted_until DESC LIMIT 1",
            [.text(userId)]
        ).first.map { try $0.date("muted_until") }
    }

    // MARK: Sign-in codes

    /// See ``ServerStorage``.
    public func insertQRSession(_ session: QRSessionRecord) async throws {
        try await driver.execute(
            """
            INSERT INTO identity_qr_sessions (id, key_hash, nonce, origin, status, user_id, device_id, requester_address, \
            requester_agent, created_at, expires_at, decided_at, redeemed_at)
            VALUES ($1, $2, $3, $4, 'pending', NULL, NULL, $5, $6, $7, $8, NULL, NULL)
            """,
            [
                .text(session.id), .text(session.keyHash), .text(session.nonce), .text(session.origin),
                .text(session.requesterAddress), .text(session.requesterAgent), .date(session.createdAt),
                .date(session.expiresAt),
            ])
    }

    /// See ``ServerStorage``.
    public func qrSession(id: String) async throws -> QRSessionRecord? {
        try await driver.query("SELECT * FROM identity_qr_sessions WHERE id = $1", [.text(id)]).first.map(Self.qrSession)
    }

    /// See ``ServerStorage``.
    public func answerQRSession(id: String, approved: Bool, userId: String, deviceId: String, now: Date) async throws -> Bool {
        try await !driver.query(
            """
            UPDATE identity_qr_sessions SET status = $2, user_id = $3, device_id = $4, decided_at = $5
            WHERE id = $1 AND status = 'pending' AND expires_at > $5 RETURNING id
            """, [.text(id), .text(approved ? "approved" : "denied"), .text(userId), .text(deviceId), .date(now)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func redeemQRSession(id: String, now: Date) async throws -> QRSessionRecord? {
        try await driver.query(
            """
            UPDATE identity_qr_sessions SET status = 'redeemed', redeemed_at = $2
            WHERE id = $1 AND status = 'approved' AND expires_at > $2 RETURNING *
            """, [.text(id), .date(now)]
        ).first.map(Self.qrSession)
    }

    static func qrSession(_ row: SQLRow) throws -> QRSessionRecord {
        var record = QRSessionRecord(
            id: try row.text("id"), keyHash: try row.text("key_hash"), nonce: try row.text("nonce"),
            origin: try row.text("origin"), requesterAddress: try row.text("requester_address"),
            requesterAgent: try row.text("requester_agent"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
        record.status = try row.text("status")
        record.userId = try row.optionalText("user_id")
        record.deviceId = try row.optionalText("device_id")
        return record
    }

    // MARK: Rows

    static func enrolledDevice(_ row: SQLRow) throws -> EnrolledDeviceRecord {
        EnrolledDeviceRecord(
            id: try row.text("id"), userId: try row.text("user_id"), name: try row.text("name"),
            deviceKey: try row.text("device_key"), pinKey: try row.text("pin_key"),
            biometricKey: try row.optionalText("biometric_key"), pinFailures: Int(try row.integer("pin_failures")),
            pinVersion: Int(try row.integer("pin_version")),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"),
            revokedAt: try row.optionalDate("revoked_at"), revokedReason: try row.optionalText("revoked_reason"))
    }

    static func transaction(_ row: SQLRow) throws -> IdentityTransactionRecord {
        var record = IdentityTransactionRecord(
            id: try row.text("id"), userId: try row.text("user_id"), appId: try row.text("app_id"),
            message: try row.text("message"), data: try row.optionalText("data"),
            requesterAddress: try row.text("requester_address"), requesterAgent: try row.text("requester_agent"),
            number: Int(try row.integer("number")), nonce: try row.text("nonce"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
        record.status = try row.text("status")
        record.reason = try row.optionalText("reason")
        record.answered = try row.integer("answered") != 0
        record.authenticator = try row.optionalText("authenticator")
        record.assertion = try row.optionalText("assertion")
        record.deviceId = try row.optionalText("device_id")
        record.decidedAt = try row.optionalDate("decided_at")
        return record
    }
}

/// ``SQLStorage``: sign-in links sent by email.
extension SQLStorage {
    /// See ``ServerStorage``.
    public func insertMagicLink(_ link: MagicLinkRecord) async throws {
        try await driver.execute(
            """
            INSERT INTO magic_links (token_hash, user_id, challenge, created_at, expires_at, used_at, failures)
            VALUES ($1, $2, $3, $4, $5, NULL, 0)
            """, [.text(link.tokenHash), .text(link.userId), .text(link.challenge), .date(link.createdAt), .date(link.expiresAt)])
    }

    /// See ``ServerStorage``.
    public func magicLink(tokenHash: String) async throws -> MagicLinkRecord? {
        try await driver.query("SELECT * FROM magic_links WHERE token_hash = $1", [.text(tokenHash)]).first.map { row in
            var link = MagicLinkRecord(
                tokenHash: try row.text("token_hash"), userId: try row.text("user_id"), challenge: try row.text("challenge"),
                createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
            link.usedAt = try row.optionalDate("used_at")
            link.failures = Int(try row.integer("failures"))
            return link
        }
    }

    /// See ``ServerStorage``.
    public func useMagicLink(tokenHash: String, failureLimit: Int, now: Date) async throws -> Bool {
        try await !driver.query(
            """
            UPDATE magic_links SET used_at = $2
            WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND failures < $3 RETURNING token_hash
            """, [.text(tokenHash), .date(now), .integer(Int64(failureLimit))]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func countMagicLinkFailure(tokenHash: String) async throws {
        try await driver.execute("UPDATE magic_links SET failures = failures + 1 WHERE token_hash = $1", [.text(tokenHash)])
    }
}
