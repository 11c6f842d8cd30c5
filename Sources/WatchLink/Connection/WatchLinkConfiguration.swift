/// The tunables of a ``WatchConnection``; the defaults follow the seed.
public struct WatchLinkConfiguration: Sendable, Hashable {
    /// Most requests the outbox holds; the oldest is dropped (and reported) beyond it.
    public var outboxLimit = 100
    /// Requests older than this are dropped from the outbox with `expired`.
    public var outboxExpiry: Duration = .seconds(3600)
    /// How long to wait for a reply to a live message before retrying.
    public var messageReplyTimeout: Duration = .seconds(2)
    /// How long to wait for a reply to a queued (user-info or context) transfer before retrying.
    public var queuedReplyTimeout: Duration = .seconds(15)
    /// Shared-state updates within this window are coalesced into one context update.
    public var stateCoalescing: Duration = .milliseconds(50)
    /// While the counterpart has not confirmed a shared-state value, it is republished this often.
    public var stateRepublishInterval: Duration = .seconds(5)
    /// How long a finished inbox entry is kept after its request's deadline.
    public var inboxRetention: Duration = .seconds(60)
    /// Most out-of-order ordered requests buffered.
    public var orderedBufferLimit = 1024
    /// Records appended before compaction is considered again (and at least a quarter of the
    /// inbox's entries, so considering it stays amortised constant per record). The log is
    /// compacted into a snapshot only when it holds at least three times what the snapshot would.
    public var compactionThreshold = 2000

    /// The seed's defaults.
    public init() {}
}
