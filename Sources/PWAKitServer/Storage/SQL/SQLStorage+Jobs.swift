public import Foundation

extension SQLStorage {
    /// See ``ServerStorage``.
    public func enqueueJob(_ job: JobRecord) async throws -> Bool {
        try await !driver.query(
            """
            INSERT INTO jobs (id, kind, post_id, state, priority, attempt, max_attempts, run_at, lease_token, created_at)
            VALUES ($1, $2, $3, 'available', $4, 0, $5, $6, 0, $7)
            ON CONFLICT (post_id) WHERE state IN ('available', 'running') DO NOTHING RETURNING id
            """,
            [
                .text(job.id), .text(job.kind), job.postId.map(SQLValue.text) ?? .null, .integer(Int64(job.priority)),
                .integer(Int64(job.maxAttempts)), .date(job.runAt), .date(job.createdAt),
            ]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func claimJobs(kinds: [String], worker: String, limit: Int, now: Date, leaseUntil: Date) async throws
        -> [JobRecord]
    {
        try await completeAndClaimJobs(
            completing: [], kinds: kinds, worker: worker, limit: limit, now: now, leaseUntil: leaseUntil
        ).claimed
    }

    /// See ``ServerStorage``.
    public func completeAndClaimJobs(
        completing: [JobLease], kinds: [String], worker: String, limit: Int, now: Date, leaseUntil: Date
    ) async throws -> (claimed: [JobRecord], completed: Set<String>) {
        let claiming = !kinds.isEmpty && limit > 0
        guard claiming || !completing.isEmpty else { return ([], []) }
        // NB: one statement either way. PostgreSQL skips rows other claimers hold; SQLite lets one writer
        // in at a time, and an autocommit UPDATE takes the write lock before it reads. Every SET reads the
        // row as it was: a running row (a completion, matched by its fencing token) becomes completed, an
        // available one (a claim) running with its attempt and token bumped.
        let postgres = driver.supportsSkipLocked
        var binds: [SQLValue] = [.date(now), .date(leaseUntil), .text(worker), .integer(Int64(claiming ? limit : 0))]
        let kindList = (claiming ? kinds : [""]).map { kind -> String in
            binds.append(.text(kind))
            return "$\(binds.count)"
        }.joined(separator: ", ")
        let claim = """
            SELECT id FROM jobs WHERE state = 'available' AND run_at <= $1 AND kind IN (\(kindList)) \
            ORDER BY priority, run_at, id LIMIT $4\(postgres ? " FOR UPDATE SKIP LOCKED" : "")
            """
        var ids: [String] = []
        var tokens: [String] = []
        for lease in completing {
            binds.append(.text(lease.id))
            binds.append(.integer(lease.leaseToken))
            ids.append("$\(binds.count - 1)")
            tokens.append("WHEN $\(binds.count - 1) THEN $\(binds.count)")
        }
        // NB: PostgreSQL reads `IN (subquery) OR …` as a filter over every row; an array built once is
        // an index scan. SQLite unions the two IN terms over the primary key either way.
        let rowsOfInterest =
            postgres
            ? "id = ANY(ARRAY(\(claim)) || ARRAY[\(ids.joined(separator: ", "))]::text[])"
            : "(id IN (\(claim))\(ids.isEmpty ? "" : " OR id IN (\(ids.joined(separator: ", ")))"))"
        // NB: a row being completed is never claimed here, even when it is available again (its lease
        // ran out and it was rescued): only rows the claim picked are taken as available.
        let fenced =
            tokens.isEmpty
            ? "state = 'available'"
            : """
            ((state = 'available' AND CASE id \(tokens.joined(separator: " ")) END IS NULL) \
            OR (state = 'running' AND lease_token = CASE id \(tokens.joined(separator: " ")) END))
            """
        let rows = try await driver.query(
            """
            UPDATE jobs SET \
            attempt = CASE WHEN state = 'available' THEN attempt + 1 ELSE attempt END, \
            lease_token = CASE WHEN state = 'available' THEN lease_token + 1 ELSE lease_token END, \
            lease_until = CASE WHEN state = 'available' THEN $2 ELSE NULL END, \
            worker = CASE WHEN state = 'available' THEN $3 ELSE worker END, \
            finished_at = CASE WHEN state = 'available' THEN finished_at ELSE $1 END, \
            state = CASE WHEN state = 'available' THEN 'running' ELSE 'completed' END \
            WHERE \(rowsOfInterest) AND \(fenced) RETURNING *
            """, binds
        ).map(Self.job)
        let claimed = rows.filter { $0.state == .running }.sorted {
            ($0.priority, $0.runAt, $0.id) < ($1.priority, $1.runAt, $1.id)
        }
        return (claimed, Set(rows.filter { $0.state == .completed }.map(\.id)))
    }

    /// See ``ServerStorage``.
    public func completeJob(id: String, leaseToken: Int64, now: Date) async throws -> Bool {
        try await !driver.query(
            """
            UPDATE jobs SET state = 'completed', lease_until = NULL, finished_at = $3
            WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING id
            """,
            [.text(id), .integer(leaseToken), .date(now)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func failJob(id: String, leaseToken: Int64, error: String, retryAt: Date, now: Date, final: Bool) async throws
        -> JobRecord.State?
    {
        let rows = try await driver.query(
            """
            UPDATE jobs SET state = CASE WHEN $6 = 1 OR attempt >= max_attempts THEN 'dead' ELSE 'available' END, \
            run_at = $3, last_error = $4, lease_until = NULL, worker = NULL, \
            finished_at = CASE WHEN $6 = 1 OR attempt >= max_attempts THEN $5 ELSE NULL END
            WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING state
            """,
            [.text(id), .integer(leaseToken), .date(retryAt), .text(error), .date(now), .integer(final ? 1 : 0)])
        return try rows.first.map { JobRecord.State(rawValue: try $0.text("state")) ?? .available }
    }

    /// See ``ServerStorage``.
    public func extendJobLease(id: String, leaseToken: Int64, until: Date) async throws -> Bool {
        try await !driver.query(
            "UPDATE jobs SET lease_until = $3 WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING id",
            [.text(id), .integer(leaseToken), .date(until)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func rescueJobs(kinds: [String], now: Date) async throws -> Int {
        guard !kinds.isEmpty else { return 0 }
        let kindList = kinds.indices.map { "$\($0 + 2)" }.joined(separator: ", ")
        return try await driver.query(
            """
            UPDATE jobs SET state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'available' END, \
            run_at = $1, lease_until = NULL, worker = NULL, \
            last_error = 'the lease ran out: the worker stopped or took too long', \
            finished_at = CASE WHEN attempt >= max_attempts THEN $1 ELSE NULL END
            WHERE state = 'running' AND lease_until < $1 AND kind IN (\(kindList)) RETURNING id
            """,
            [.date(now)] + kinds.map(SQLValue.text)
        ).count
    }

    /// See ``ServerStorage``.
    public func purgeJobs(completedBefore: Date, deadBefore: Date, kinds: [String]?) async throws -> Int {
        let kindFilter =
            kinds.map { list in
                " AND kind IN (" + list.indices.map { "$\($0 + 3)" }.joined(separator: ", ") + ")"
            } ?? ""
        if let kinds, kinds.isEmpty { return 0 }
        return try await driver.query(
            """
            DELETE FROM jobs WHERE ((state = 'completed' AND finished_at < $1) OR (state = 'dead' AND finished_at < $2))\
            \(kindFilter) RETURNING id
            """,
            [.date(completedBefore), .date(deadBefore)] + (kinds ?? []).map(SQLValue.text)
        ).count
    }

    /// See ``ServerStorage``.
    public func jobs(postId: String) async throws -> [JobRecord] {
        try await driver.query("SELECT * FROM jobs WHERE post_id = $1 ORDER BY created_at, id", [.text(postId)]).map(
            Self.job)
    }

    /// See ``ServerStorage``.
    public func job(id: String) async throws -> JobRecord? {
        try await driver.query("SELECT * FROM jobs WHERE id = $1", [.text(id)]).first.map(Self.job)
    }

    static func job(_ row: SQLRow) throws -> JobRecord {
        JobRecord(
            id: try row.text("id"), kind: try row.text("kind"), postId: try row.optionalText("post_id"),
            state: JobRecord.State(rawValue: try row.text("state")) ?? .available,
            priority: Int(try row.integer("priority")), attempt: Int(try row.integer("attempt")),
            maxAttempts: Int(try row.integer("max_attempts")), runAt: try row.date("run_at"),
            leaseToken: try row.integer("lease_token"), leaseUntil: try row.optionalDate("lease_until"),
            worker: try row.optionalText("worker"), lastError: try row.optionalText("last_error"),
            createdAt: try row.date("created_at"))
    }
}
