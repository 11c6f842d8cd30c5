public import Foundation

/// One unit of background work in the durable queue: what to do, for which post, and the lease of
/// whoever holds it.
///
/// A claim bumps ``leaseToken``: it is the fencing token. Completing, failing or extending a job
/// names the token it was claimed with, and the queue refuses a token that is no longer the job's
/// (its lease ran out and another worker claimed it), so a slow worker cannot finish a job twice.
public struct JobRecord: Sendable, Hashable {
    /// Where the job is.
    public enum State: String, Sendable, Hashable, Codable {
        /// Waiting for its run time and a worker.
        case available
        /// Claimed; a worker holds its lease.
        case running
        /// Done.
        case completed
        /// Given up after its last attempt; ``JobRecord/lastError`` says why.
        case dead
    }

    /// The job's id (a UUID).
    public var id: String
    /// What to do (`ingest_post`).
    public var kind: String
    /// The post it is about, if any.
    public var postId: String?
    /// Where it is.
    public var state: State
    /// Lower runs first.
    public var priority: Int
    /// Claims so far.
    public var attempt: Int
    /// Claims allowed before it is dead.
    public var maxAttempts: Int
    /// Not claimed before this time.
    public var runAt: Date
    /// The fencing token: bumped by every claim.
    public var leaseToken: Int64
    /// When the current lease ends.
    public var leaseUntil: Date?
    /// The worker holding it.
    public var worker: String?
    /// The last failure's message.
    public var lastError: String?
    /// When it was queued.
    public var createdAt: Date

    /// Creates a record.
    public init(
        id: String, kind: String, postId: String?, state: State = .available, priority: Int = 0, attempt: Int = 0,
        maxAttempts: Int = 8, runAt: Date, leaseToken: Int64 = 0, leaseUntil: Date? = nil, worker: String? = nil,
        lastError: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.postId = postId
        self.state = state
        self.priority = priority
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.runAt = runAt
        self.leaseToken = leaseToken
        self.leaseUntil = leaseUntil
        self.worker = worker
        self.lastError = lastError
        self.createdAt = createdAt
    }
}

/// A job as its holder names it: its id and the fencing token of the claim that holds it.
public struct JobLease: Sendable, Hashable {
    /// The job's id.
    public let id: String
    /// The claim's fencing token.
    public let leaseToken: Int64

    /// Creates a lease.
    public init(id: String, leaseToken: Int64) {
        self.id = id
        self.leaseToken = leaseToken
    }
}
