/// A durable log on a simulated disk: appended records survive a crash only once synced.
public struct SimulatedDisk: Sendable {
    /// Records that survive a crash.
    public private(set) var synced: [DurableRecord] = []
    /// Records appended since the last sync; a crash discards them.
    public private(set) var unsynced: [DurableRecord] = []
    /// How many syncs have been performed.
    public private(set) var syncCount = 0

    /// Creates an empty disk.
    public init() {}

    /// Appends a record (volatile until ``sync()``).
    public mutating func append(_ record: DurableRecord) { unsynced.append(record) }

    /// Makes every appended record durable.
    public mutating func sync() {
        guard !unsynced.isEmpty else { return }
        synced += unsynced
        unsynced.removeAll()
        syncCount += 1
    }

    /// Atomically replaces the log (write to a temporary file, sync, rename).
    public mutating func replace(with records: [DurableRecord]) {
        synced = records
        unsynced.removeAll()
        syncCount += 1
    }

    /// A crash: everything not yet synced is lost.
    public mutating func crash() { unsynced.removeAll() }
}
