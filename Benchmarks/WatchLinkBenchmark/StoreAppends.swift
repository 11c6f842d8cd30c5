import Foundation
import PWAKitRetry
import Synchronization
import WatchLink

/// The log's appends alone, one thread, no sync timed: `FileStore.append` of one record against
/// its floor, the same number of framed bytes, built beforehand, appended under a lock to a buffer
/// that keeps its capacity (what the store's double buffer does with them). The difference is the
/// record's encoding and framing (its fields, the length and the salted checksum), and the store's
/// second take of its lock and its array for each append's frames.
enum StoreAppends {
    /// One kind of record measured: its name, and the record.
    struct Case {
        var name: String
        var record: DurableRecord
    }

    /// The records a durable post writes: the phone's request, and its share of a settle.
    static func cases(payload: Data) -> [Case] {
        let now = WatchTimestamp(milliseconds: 1_800_000_000_000)
        let request = WireRequest(
            typeKey: Record.typeKey, payload: payload, requestID: UUID(), isFireAndForget: true, createdAt: now,
            deadline: now.advanced(by: .seconds(60)), floor: 1)
        return [
            Case(
                name: "a request (outboxAdded)",
                record: .outboxAdded(OutboxEntry(request: request, strategy: .messageWithUserInfoFallback, retry: .standard))),
            Case(name: "a settle of one request (outboxAcknowledged)", record: .outboxAcknowledged([UUID()])),
        ]
    }

    /// Median µs of this thread's CPU per record, floor and ours, over `rounds` alternating rounds
    /// of `perRound` appends each; the store's buffer is synced, and the floor's emptied, between
    /// rounds, outside the time taken.
    static func measure(
        _ measured: Case, directory: String, perRound: Int, rounds: Int
    ) throws -> (floor: Double, ours: Double, bytes: Int) {
        let path = directory + "/store-appends.log"
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try FileStore(path: path)
        try store.append([measured.record])
        try store.sync()
        let size = store.statistics.bytes
        let framed = [UInt8](repeating: 0x5A, count: size)
        let buffer = Mutex<[UInt8]>([])
        var floor: [Double] = []
        var ours: [Double] = []
        let records = [measured.record]
        for _ in 0..<rounds {
            var began = CPUTime.ofThisThread()
            for _ in 0..<perRound { buffer.withLock { $0 += framed } }
            floor.append(micros(CPUTime.ofThisThread() - began) / Double(perRound))
            buffer.withLock { $0.removeAll(keepingCapacity: true) }

            began = CPUTime.ofThisThread()
            for _ in 0..<perRound { try store.append(records) }
            ours.append(micros(CPUTime.ofThisThread() - began) / Double(perRound))
            try store.sync()
        }
        return (median(floor), median(ours), size)
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
