import Foundation
import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// A disk slower to flush than this machine's (`--sync-latency`): every sync that wrote something
/// waits `latency` more, asleep, as a thread waits for a device, in the floors and in WatchLink
/// alike.
///
/// NB: this VM's virtio disk flushes in about 0.1 ms, and a phone's flash may take milliseconds
/// (`F_FULLFSYNC` on Apple's platforms); where the flush is cheap, CPU limits durable sends and the
/// benchmark measures CPU, and only a slower flush shows how well syncs are shared.
struct SyncLatency: Sendable {
    /// What each flush adds.
    let latency: Duration

    /// No latency added.
    static let none = SyncLatency(latency: .zero)

    /// Sleeps for ``latency`` `times` over (a compaction flushes the new file and its directory).
    func pause(times: Int = 1) {
        guard latency > .zero, times > 0 else { return }
        let total = latency * times
        var request = timespec(
            tv_sec: Int(total.components.seconds), tv_nsec: Int(total.components.attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// WatchLink's file log on a disk whose flushes take ``SyncLatency/latency`` longer: each sync
/// that wrote records, and each compaction's two flushes, then sleep that long.
final class SlowFileStore: DurableStore {
    let file: FileStore
    let latency: SyncLatency

    init(_ file: FileStore, latency: SyncLatency) {
        self.file = file
        self.latency = latency
    }

    func load() throws(WatchLinkError) -> [DurableRecord] { try file.load() }
    func append(_ records: [DurableRecord]) throws(WatchLinkError) { try file.append(records) }
    func sync() throws(WatchLinkError) { _ = try syncCountingRecords() }
    var syncsInBackground: Bool { file.syncsInBackground }
    var bufferedRecords: Int { file.bufferedRecords }

    func syncCountingRecords() throws(WatchLinkError) -> Int {
        let syncsBefore = file.statistics.syncs
        let written = try file.syncCountingRecords()
        if file.statistics.syncs > syncsBefore { latency.pause() }
        return written
    }

    func replace(with records: [DurableRecord]) throws(WatchLinkError) {
        try file.replace(with: records)
        latency.pause(times: 2)
    }
}
