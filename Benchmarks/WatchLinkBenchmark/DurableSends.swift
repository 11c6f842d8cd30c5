import Foundation
import WatchLink

extension WatchLinkBenchmark {
    /// Durable sends against the group-commit floor, in alternating blocks: a first block of ours
    /// says how many records, of how many bytes, WatchLink's log takes per send; the floor then
    /// appends exactly those from as many concurrent senders.
    static func durableSends(
        _ connection: WatchConnection, store: FileStore, directory: String, count: Int, senders: Int, blocks: Int, watch: Int32,
        latency: SyncLatency
    ) async throws {
        let record = Record(text: String(repeating: "r", count: 128))
        func ours(_ sends: Int, on executor: (any TaskExecutor)? = nil) async throws -> Duration {
            let clock = ContinuousClock()
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<senders {
                    group.addTask(executorPreference: executor) {
                        for _ in stride(from: worker, to: sends, by: senders) {
                            try await connection.post(record, strategy: .messageWithUserInfoFallback)
                        }
                    }
                }
                try await group.waitForAll()
            }
            return start.duration(to: clock.now)
        }
        func phoneLog() -> LogStatistics { LogStatistics(store.statistics) }
        /// The watch's log, once every send so far is settled (so its records for them are written).
        func watchLog() async throws -> LogStatistics {
            for _ in 0..<500 where connection.status.pendingCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
            return try await connection.send(WatchLogStatistics(), strategy: .messageOnly, durable: false)
        }
        let warmUp = max(senders * 4, count / blocks)
        let before = phoneLog()
        let watchBefore = try await watchLog()
        _ = try await ours(warmUp)
        let after = phoneLog()
        let watchAfter = try await watchLog()
        let recordsPerSend = Double(after.records - before.records) / Double(warmUp)
        let bytesPerSend = Double(after.bytes - before.bytes) / Double(warmUp)
        let watchWarmUp = watchAfter - watchBefore
        guard
            let floor = GroupCommitFloor(
                path: directory + "/group-commit-floor.log", recordsPerSend: Int(recordsPerSend.rounded()),
                bytesPerSend: Int(bytesPerSend.rounded()), latency: latency)
        else {
            print("watchlink-benchmark: cannot open the floor's log in \(directory)")
            return
        }
        defer { floor.close() }
        // NB: the second floor writes the watch's records too, in a log of their own that a second
        // writer syncs once the phone's log has synced their sends (nobody waits for it, as no
        // sender waits for the watch's log in WatchLink's durable sends), in the same process.
        guard
            let watchFloor = GroupCommitFloor(
                path: directory + "/group-commit-floor-watch.log",
                recordsPerSend: Int((Double(watchWarmUp.records) / Double(warmUp)).rounded()),
                bytesPerSend: Int((Double(watchWarmUp.bytes) / Double(warmUp)).rounded()), latency: latency),
            let bothFloor = GroupCommitFloor(
                path: directory + "/group-commit-floor-both.log", recordsPerSend: Int(recordsPerSend.rounded()),
                bytesPerSend: Int(bytesPerSend.rounded()), latency: latency, follower: watchFloor)
        else {
            print("watchlink-benchmark: cannot open the floor's logs in \(directory)")
            return
        }
        defer {
            bothFloor.close()
            watchFloor.close()
        }
        print(
            "durable each send writes \(format(recordsPerSend)) records, \(format(bytesPerSend)) B on the phone (measured over \(warmUp) warm-up sends); the floor writes the same"
        )
        print(
            "durable and \(format(Double(watchWarmUp.records) / Double(warmUp))) records, \(format(Double(watchWarmUp.bytes) / Double(warmUp))) B on the watch, which only the second floor (both logs) writes too"
        )
        let start = phoneLog()
        let watchStart = try await watchLog()
        let (floorRun, oursRuns, bothRun) = try await alternating(count: count, blocks: blocks, watch: watch) { size in
            floor.run(size, senders: senders)
        } ours: { size in
            try await ours(size)
        } pinned: { size in
            try await ours(size, on: connection.taskExecutor)
        } secondFloor: { size in
            bothFloor.run(size, senders: senders)
        }
        let end = phoneLog()
        let watchRun = try await watchLog() - watchStart
        // NB: closed (leader first) before their counts are read: the follower's writer may still
        // be syncing the last group the leader handed it.
        bothFloor.close()
        watchFloor.close()
        let floorRate = rate(count, floorRun.elapsed)
        print(
            "floor  group commit, \(senders) senders, one writer, fdatasync: \(format(floorRate)) sends/s  \(format(Double(floor.records) / Double(max(floor.syncs, 1)))) records/sync  CPU \(format(micros(floorRun.cpu) / Double(count))) µs/send"
        )
        print(
            "ours   \(format(Double(end.records - start.records) / Double(max(end.syncs - start.syncs, 1)))) records/sync on the phone, \(format(Double(watchRun.records) / Double(max(watchRun.syncs, 1)))) on the watch, over both of the runs below (\(String(format: "%.3f", Double(end.syncs - start.syncs + watchRun.syncs) / Double(2 * count))) syncs per send on both sides; the floor \(String(format: "%.3f", Double(floor.syncs) / Double(count))))"
        )
        let bothRate = rate(count, bothRun.elapsed)
        print(
            "floor  both logs (the phone's as above, then the watch's by a second writer): \(format(bothRate)) sends/s  \(format(Double(watchFloor.records) / Double(max(watchFloor.syncs, 1)))) records/sync in the watch's log  CPU \(format(micros(bothRun.cpu) / Double(count))) µs/send"
        )
        var ratios: [String] = []
        var bothRatios: [String] = []
        for (name, run) in [("global executor", oursRuns.ours), ("connection's executor", oursRuns.pinned)] {
            let oursRate = rate(count, run.elapsed)
            print(
                "ours   durable sends (accepted = recorded + fsynced), \(senders) concurrent tasks on the \(name): \(format(oursRate)) sends/s  CPU \(format(micros(run.cpu) / Double(count))) µs/send (both processes; the watch \(format(micros(run.watchCPU) / Double(count))))"
            )
            ratios.append("\(String(format: "%.3f", oursRate / max(floorRate, 0.001)))x on the \(name)")
            bothRatios.append("\(String(format: "%.3f", oursRate / max(bothRate, 0.001)))x on the \(name)")
        }
        print("blocks \(blocks) alternating blocks of each, \(count) sends in all")
        print("ratio  durable sends ours/floor = \(ratios.joined(separator: ", ")) (target ≥ 0.8x)")
        print("ratio  durable sends ours/floor of both logs = \(bothRatios.joined(separator: ", "))")
    }
}
