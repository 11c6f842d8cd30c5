/// A durable log on a simulated disk: appended records survive a crash only once synced.
package struct SimulatedDisk: Sendable {
    /// Records that survive a crash.
    package private(set) var synced: [DurableRecord] = []
    /// Records appended since the last sync; a crash discards them.
    package private(set) var unsynced: [DurableRecord] = []
    /// How many syncs have been performed.
    package private(set) var syncCount = 0

    /// Creates an empty disk.
    package init() {}

    /// Appends a record (volatile until ``sync()``).
    package mutating func append(_ record: DurableRecord) { unsynced.append(record) }

    /// Makes every appended record durable.
    package mutating func sync() {
        guard !unsynced.isEmpty else { return }
        synced += unsynced
        unsynced.removeAll()
        syncCount += 1
    }

    /// Atomically replaces the log (write to a temporary file, sync, rename).
    package mutating func replace(with records: [DurableRecord]) {
        synced = records
        unsynced.removeAll()
        syncCount += 1
    }

    /// A crash: everything not yet synced is lost.
    package mutating func crash() { unsynced.removeAll() }
}
