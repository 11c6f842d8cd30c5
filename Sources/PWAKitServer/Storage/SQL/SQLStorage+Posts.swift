public import Foundation

extension SQLStorage {
    /// See ``ServerStorage``.
    public func insertPost(_ post: PostRecord) async throws -> (post: PostRecord, created: Bool) {
        let rows = try await driver.query(
            """
            INSERT INTO posts (id, user_id, url, canonical_url, instructions, status, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id, canonical_url) DO NOTHING RETURNING *
            """,
            [
                .text(post.id), .text(post.userId), .text(post.url), .text(post.canonicalURL),
                post.instructions.map(SQLValue.text) ?? .null, .text(post.status.rawValue), .date(post.createdAt),
                .date(post.updatedAt),
            ])
        if let row = rows.first { return (try Self.post(row), true) }
        // NB: the conflict means the owner shared this canonical URL before; that post is the answer.
        guard let existing = try await self.post(userId: post.userId, canonicalURL: post.canonicalURL) else {
            throw StorageError(message: "a post for \(post.canonicalURL) conflicted but cannot be read")
        }
        return (existing, false)
    }

    /// See ``ServerStorage``.
    public func post(userId: String, canonicalURL: String) async throws -> PostRecord? {
        try await driver.query(
            "SELECT * FROM posts WHERE user_id = $1 AND canonical_url = $2", [.text(userId), .text(canonicalURL)]
        ).first.map(Self.post)
    }

    /// See ``ServerStorage``.
    public func post(id: String) async throws -> PostRecord? {
        try await driver.query("SELECT * FROM posts WHERE id = $1", [.text(id)]).first.map(Self.post)
    }

    /// See ``ServerStorage``.
    public func posts(userId: String, before: (createdAt: Date, id: String)?, limit: Int) async throws -> [PostRecord] {
        if let before {
            return try await driver.query(
                """
                SELECT * FROM posts WHERE user_id = $1 AND (created_at < $2 OR (created_at = $2 AND id < $3))
                ORDER BY created_at DESC, id DESC LIMIT $4
                """,
                [.text(userId), .date(before.createdAt), .text(before.id), .integer(Int64(limit))]
            ).map(Self.post)
        }
        return try await driver.query(
            "SELECT * FROM posts WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
            [.text(userId), .integer(Int64(limit))]
        ).map(Self.post)
    }

    /// See ``ServerStorage``.
    public func updatePostInstructions(id: String, userId: String, instructions: String?, now: Date) async throws
        -> PostRecord?
    {
        try await driver.query(
            "UPDATE posts SET instructions = $3, updated_at = $4 WHERE id = $1 AND user_id = $2 RETURNING *",
            [.text(id), .text(userId), instructions.map(SQLValue.text) ?? .null, .date(now)]
        ).first.map(Self.post)
    }

    /// See ``ServerStorage``.
    public func deletePost(id: String, userId: String) async throws -> Bool {
        let deleted = try await !driver.query(
            "DELETE FROM posts WHERE id = $1 AND user_id = $2 RETURNING id", [.text(id), .text(userId)]
        ).isEmpty
        if deleted { try await driver.execute("DELETE FROM jobs WHERE post_id = $1", [.text(id)]) }
        return deleted
    }

    /// See ``ServerStorage``.
    public func finishPost(_ post: PostRecord) async throws -> Bool {
        try await !driver.query(
            """
            UPDATE posts SET status = $2, title = $3, summary = $4, site_name = $5, image_hash = $6, last_error = $7, \
            updated_at = $8 WHERE id = $1 RETURNING id
            """,
            [
                .text(post.id), .text(post.status.rawValue), post.title.map(SQLValue.text) ?? .null,
                post.summary.map(SQLValue.text) ?? .null, post.siteName.map(SQLValue.text) ?? .null,
                post.imageHash.map(SQLValue.text) ?? .null, post.lastError.map(SQLValue.text) ?? .null,
                .date(post.updatedAt),
            ]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func updatePostCanonical(id: String, userId: String, canonicalURL: String, now: Date) async throws -> Bool {
        do {
            return try await !driver.query(
                """
                UPDATE posts SET canonical_url = $3, updated_at = $4 WHERE id = $1 AND user_id = $2 \
                AND NOT EXISTS (SELECT 1 FROM posts WHERE user_id = $2 AND canonical_url = $3) RETURNING id
                """,
                [.text(id), .text(userId), .text(canonicalURL), .date(now)]
            ).isEmpty
        } catch {
            // NB: a post for the same canonical URL made between the check and the write; the unique key refused it.
            if try await self.post(userId: userId, canonicalURL: canonicalURL) != nil { return false }
            throw error
        }
    }

    static func post(_ row: SQLRow) throws -> PostRecord {
        PostRecord(
            id: try row.text("id"), userId: try row.text("user_id"), url: try row.text("url"),
            canonicalURL: try row.text("canonical_url"), instructions: try row.optionalText("instructions"),
            status: PostRecord.Status(rawValue: try row.text("status")) ?? .pending, title: try row.optionalText("title"),
            summary: try row.optionalText("summary"), siteName: try row.optionalText("site_name"),
            imageHash: try row.optionalText("image_hash"), lastError: try row.optionalText("last_error"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }
}
