import Synchronization

/// Where a device keeps its durable log.
///
/// `append` may buffer; only `sync` promises durability. `replace` is atomic: after a crash
/// the log is either entirely the old one or entirely the new one.
package protocol DurableStore: Sendable {
    /// Every record that survived, in order.
    func load() throws(WatchLinkError) -> [DurableRecord]
    /// Appends records (not yet durable).
    func append(_ records: [DurableRecord]) throws(WatchLinkError)
    /// Makes every appended record durable.
    func sync() throws(WatchLinkError)
    /// Atomically replaces the whole log.
    func replace(with records: [DurableRecord]) throws(WatchLinkError)
    /// Whether `sync` waits on a device, so the connection should run it on its sync queue while it
    /// gathers the next group commit. `false` by default: the sync then runs inline.
    var syncsInBackground: Bool { get }
    /// Records appended that no sync has taken yet: what the next sync would write (0 for a store
    /// that does not count them, whose syncs then never wait for a group to gather).
    var bufferedRecords: Int { get }
    /// ``sync()``, returning how many records it wrote (0 for a store that does not count them).
    func syncCountingRecords() throws(WatchLinkError) -> Int
}

extension DurableStore {
    /// Stores sync inline unless they say otherwise.
    package var syncsInBackground: Bool { false }
    /// Stores do not count buffered records unless they say otherwise.
    package var bufferedRecords: Int { 0 }
    /// A sync that counts nothing.
    package func syncCountingRecords() throws(WatchLinkError) -> Int {
        try sync()
        return 0
    }
}

/// A durable log in memory, for tests and for devices that accept losing state on termination.
public final class InMemoryStore: DurableStore {
    private let disk = Mutex(SimulatedDisk())

    /// Creates an empty store.
    public init() {}

    /// Synced records.
    package func load() -> [DurableRecord] { disk.withLock { $0.synced } }
    /// Appends records.
    package func append(_ records: [DurableRecord]) { disk.withLock { for r in records { $0.append(r) } } }
    /// Makes appended records durable.
    package func sync() { disk.withLock { $0.sync() } }
    /// Replaces the log.
    package func replace(with records: [DurableRecord]) { disk.withLock { $0.replace(with: records) } }
    /// Simulates a crash: unsynced records are lost.
    public func crash() { disk.withLock { $0.crash() } }
}
