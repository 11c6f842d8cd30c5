/// When the sync loop waits a little before a sync so that more records share it (PostgreSQL's
/// `commit_delay`, made adaptive).
///
/// With many senders in a closed loop and one sync in flight, the records appended while a sync
/// runs are only the senders that were not in its group: groups alternate between a few records
/// and the rest, and every small group pays a whole sync. This policy waits before a sync only
/// when the records waiting are fewer than half of the last group's, for at most half of a recent
/// sync's duration, and stops waiting as soon as they are as many as the last group's. A lone
/// sender never waits (its last group was one send), and a load that falls away costs at most one
/// short wait per sync until the groups it measures shrink with it.
///
/// A pure value: the sync loop feeds it each sync's size and duration and asks it before each sync.
struct CommitDelay: Sendable, Equatable {
    /// Groups smaller than this never make the next sync wait: too few senders to gather.
    static let minimumGroup = 8
    /// The longest wait, whatever the disk's latency.
    static let maximumWait = Duration.milliseconds(2)

    /// Records in the last sync that wrote any.
    private(set) var lastGroup = 0
    /// A moving average of recent syncs' durations (each new one weighs a quarter).
    private(set) var syncTime = Duration.zero
    /// The longest wait of this policy (``maximumWait`` unless a test says otherwise).
    private(set) var waitLimit = Self.maximumWait

    /// Creates a policy that has seen no sync yet (and so never waits).
    init() {}

    /// A policy that has seen a sync of `lastGroup` records taking `syncTime`, waiting at most
    /// `waitLimit`: for tests of the loop's wait.
    init(lastGroup: Int, syncTime: Duration, waitLimit: Duration) {
        self.lastGroup = lastGroup
        self.syncTime = syncTime
        self.waitLimit = waitLimit
    }

    /// Records that a sync wrote `records` records and took `duration`.
    mutating func synced(records: Int, took duration: Duration) {
        guard records > 0 else { return }
        lastGroup = records
        syncTime = syncTime == .zero ? duration : (syncTime * 3 + duration) / 4
    }

    /// Whether to wait before syncing `pending` records: how many records to wait for, and for how
    /// long at most; `nil` to sync at once.
    func gather(pending: Int) -> (records: Int, wait: Duration)? {
        guard pending > 0, lastGroup >= Self.minimumGroup, pending < lastGroup / 2, syncTime > .zero else { return nil }
        return (lastGroup, min(syncTime / 2, waitLimit))
    }
}
