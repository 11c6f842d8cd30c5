public import Foundation

/// ``SQLStorage``: Refresh-token families: issuing, rotation with its grace window, revocation.
extension SQLStorage {
    // MARK: Refresh tokens

    /// See ``ServerStorage``.
    public func insertRefreshToken(
        tokenHash: String, familyId: String, userId: String, issuedAt: Date, expiresAt: Date, newFamily: Bool,
        deviceId: String?
    ) async throws {
        if newFamily {
            try await driver.execute(
                "INSERT INTO refresh_families (id, user_id, created_at, revoked_at, device_id) VALUES ($1, $2, $3, NULL, $4)",
                [.text(familyId), .text(userId), .date(issuedAt), deviceId.map(SQLValue.text) ?? .null]
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
            try existing.optionalText("used_by") == address, let issued = try existing.optionalText("replaced_by")
        {
            // NB: one retry at a time takes the token's place in the chain: it marks the place taken
            // (`pending:`) and names its successor only once that successor is stored and the one it
            // replaces is used, so nobody ever rotates a successor still being written. A retry that
            // finds the place taken, or loses the race to take it, is the client's own burst, not a
            // theft: it is refused cleanly and the session lives on with the winner's tokens.
            guard !issued.hasPrefix(Self.pendingMark) else { return .retryOvertaken }
            let claimed = try await driver.query(
                "UPDATE refresh_tokens SET replaced_by = $3 WHERE token_hash = $1 AND replaced_by = $2 RETURNING token_hash",
                [.text(tokenHash), .text(issued), .text(Self.pendingMark + successor)])
            guard !claimed.isEmpty else { return .retryOvertaken }
            if let owner = try await rotate(issued, to: successor, expiresAt: expiresAt, now: now, address: address) {
                try await driver.execute(
                    "UPDATE refresh_tokens SET replaced_by = $2 WHERE token_hash = $1", [.text(tokenHash), .text(successor)])
                return .retried(familyId: owner.familyId, userId: owner.userId)
            }
            // NB: the successor was used already: not a lost answer, a reuse, as below.
        }
        try await revokeRefreshFamily(familyId: familyId, now: now)
        return .reused(familyId: familyId)
    }

    /// What `replaced_by` holds while a retry writes its successor.
    static let pendingMark = "pending:"

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
            "SELECT f.id FROM refresh_families f WHERE f.id = $1 AND \(Self.familyActive)", [.text(familyId)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func catalogRevision(ifFamilyIsActive familyId: String) async throws -> Int64? {
        try await driver.query(
            "SELECT (SELECT COUNT(*) FROM apps) AS revision FROM refresh_families f WHERE f.id = $1 AND \(Self.familyActive)",
            [.text(familyId)]
        ).first?.integer("revision")
    }

    /// A family `f` is active when it is not revoked and, bound to an enrolled device, that device is
    /// active too: a session issued while its device was being revoked ends with the device.
    static let familyActive = """
        f.revoked_at IS NULL AND (f.device_id IS NULL OR EXISTS \
        (SELECT 1 FROM identity_devices d WHERE d.id = f.device_id AND d.revoked_at IS NULL))
        """

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
}
