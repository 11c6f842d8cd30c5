import Foundation
import Synchronization

/// Group commit: a batch's records are appended under a log sequence number, syncs run in a loop
/// on the sync queue, and each group's effects wait for a sync that covers it.
extension WatchConnection {
    /// Performs the effects of several inputs after a durable sync that runs on the sync queue.
    ///
    /// The records are appended at once (the store's double buffer takes them even while a sync
    /// writes) and the group gets the next log sequence number; its other effects wait in
    /// ``pendingGroups`` until the sync loop reports a sync that covers that number. The loop
    /// starts the next sync as soon as one returns if more was appended meanwhile (after at most the
    /// commit delay, ``CommitDelay``, when few records wait), so the disk waits for the connection
    /// no longer than that, and groups grow while a sync runs. Effects run in the order the engine
    /// produced them: work that writes nothing joins the last waiting group, or runs at once when
    /// none waits. A store that syncs inline (``DurableStore/syncsInBackground``) gets the
    /// synchronous group commit.
    ///
    /// - Returns: the log sequence number whose sync the effects wait for, or `nil` when they were
    ///   performed before returning.
    @discardableResult
    func commit(_ lists: [[LinkAction]]) -> UInt64? {
        guard storageError == nil else { return nil }
        guard store.syncsInBackground else {
            performGrouped(lists)
            return nil
        }
        if !lists.contains(where: { $0.contains(where: \.touchesStorage) }) {
            // NB: the common non-durable batch, performed (or queued behind the pending groups)
            // without being split and copied.
            let rest = lists.count == 1 ? lists[0] : Array(lists.joined())
            guard let last = pendingGroups.indices.last else {
                perform(rest)
                return nil
            }
            pendingGroups[last].effects += rest
            return pendingGroups[last].lsn
        }
        let (records, rest, needsSync, compacts) = Self.partition(lists)
        if compacts && !compactionScheduled {
            // NB: compaction rewrites the log (write, fsync, rename), so it runs on the sync queue's
            // thread, never on a caller's task or the reading thread; meanwhile the batch is
            // committed as any other.
            compactionScheduled = true
            syncQueue.async { self.queue.runOnThisThread({ self.compactNow() }, whileFree: self.nothingToSync) }
        }
        if records.isEmpty && !needsSync {
            guard let last = pendingGroups.indices.last else {
                perform(rest)
                return nil
            }
            pendingGroups[last].effects += rest
            return pendingGroups[last].lsn
        }
        do throws(WatchLinkError) { if !records.isEmpty { try store.append(records) } } catch {
            failStorage(error)
            return nil
        }
        let lsn = nextLSN
        nextLSN += 1
        pendingGroups.append((lsn, rest))
        let (start, gathered) = syncProgress.withLock { progress in
            progress.requested = lsn
            var gathered = false
            if let goal = progress.gatherGoal, store.bufferedRecords >= goal {
                progress.gatherGoal = nil
                gathered = true
            }
            guard !progress.running else { return (false, gathered) }
            progress.running = true
            return (true, gathered)
        }
        if gathered { gatherSignal.signal() }
        if start { startSyncLoop() }
        return lsn
    }

    /// Calls `body` once the effects committed under `lsn` were performed, with `nil`, or with the
    /// error that ended the connection first; at once when `lsn` is `nil`.
    func afterSync(_ lsn: UInt64?, _ body: @escaping (WatchLinkError?) -> Void) {
        guard let lsn, storageError == nil else { return body(storageError) }
        syncWaiters.append((lsn, body))
    }

    /// Syncs on ``syncQueue`` until every requested group is covered, reporting each sync to the connection.
    private func startSyncLoop() {
        let store = self.store
        syncQueue.async {
            let clock = ContinuousClock()
            while true {
                self.gatherGroup()
                // NB: read before the sync: every group numbered up to `target` was appended before
                // `requested` was raised to it, so this sync covers it.
                let target = self.syncProgress.withLock { $0.requested }
                let began = clock.now
                let failure: WatchLinkError?
                var written = 0
                do throws(WatchLinkError) {
                    written = try store.syncCountingRecords()
                    failure = nil
                } catch { failure = error }
                let took = began.duration(to: clock.now)
                let more = self.syncProgress.withLock { progress in
                    if let failure {
                        progress.failure = progress.failure ?? failure
                    } else {
                        progress.synced = max(progress.synced, target)
                        progress.delay.synced(records: written, took: took)
                    }
                    guard failure == nil, progress.requested > target else {
                        progress.running = false
                        return false
                    }
                    return true
                }
                // NB: with more to sync, the disk must not wait for the effects: they go to a task
                // while this thread syncs again. With nothing more, they run here (when no job runs).
                if more {
                    Task { self.queue.run { self.synced() } }
                } else {
                    // NB: this thread goes on with queued jobs only while nothing waits to be synced;
                    // then the rest goes to a task, and the loop is free for the next sync.
                    self.queue.runOne({ self.synced() }, whileFree: self.nothingToSync)
                    return
                }
            }
        }
    }

    /// Waits, before a sync, for more records to share it when ``CommitDelay`` says so: until as
    /// many records wait as the last group held (an append signals it), or the delay runs out.
    private func gatherGroup() {
        let wait: Duration? = syncProgress.withLock { progress in
            guard let (records, wait) = progress.delay.gather(pending: store.bufferedRecords) else { return nil }
            progress.gatherGoal = records
            return wait
        }
        guard let wait else { return }
        let nanoseconds = Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)
        guard gatherSignal.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut else { return }
        // NB: an append may have reached the goal (and signalled) between the timeout and this lock:
        // that signal is taken here, so the next wait does not return at once.
        let signalled = syncProgress.withLock { progress in
            guard progress.gatherGoal == nil else {
                progress.gatherGoal = nil
                return false
            }
            return true
        }
        if signalled { gatherSignal.wait() }
    }

    /// Whether no appended group waits for a sync (the sync queue's thread may then run jobs).
    @Sendable func nothingToSync() -> Bool {
        syncProgress.withLock { $0.requested <= $0.synced }
    }

    /// A sync returned: perform the effects of every group it covers, in order.
    func synced() {
        let (synced, failure) = syncProgress.withLock { ($0.synced, $0.failure) }
        guard lifecycle == .running, storageError == nil else { return }
        if let failure {
            failStorage(failure)
            return
        }
        // NB: the effects of every group this sync covers are performed together, in order: their
        // messages go to the session together, and their acknowledgements share frames.
        let covered = pendingGroups.prefix { $0.lsn <= synced }.count
        if covered == 1 {
            perform(pendingGroups.removeFirst().effects)
        } else if covered > 1 {
            let effects = Array(pendingGroups.prefix(covered).map(\.effects).joined())
            pendingGroups.removeFirst(covered)
            perform(effects)
        }
        guard storageError == nil else { return }
        let waiting = syncWaiters.prefix { $0.lsn <= synced }
        syncWaiters.removeFirst(waiting.count)
        for waiter in waiting { waiter.body(nil) }
    }

    /// Replaces the log with a snapshot of the engine, once every group appended so far is durable
    /// and its effects performed; runs on the sync queue's thread (see ``commit(_:)``).
    func compactNow() {
        compactionScheduled = false
        guard lifecycle == .running, storageError == nil else { return }
        finishCommits()
        guard storageError == nil else { return }
        // NB: no record can be appended between that sync and the replacement: appends happen
        // only in jobs, and this is the one running.
        do throws(WatchLinkError) { try store.replace(with: engine.snapshot(now: currentTime())) } catch {
            failStorage(error)
        }
    }

    /// Makes every group appended so far durable and performs their effects, so that a call that
    /// reports storage errors synchronously (`post(contentsOf:)`, a shared-state update) can write
    /// inline without overtaking effects that are still waiting for the disk.
    func finishCommits() {
        guard !pendingGroups.isEmpty else { return }
        // NB: syncs here rather than waiting for the loop, whose thread may be this one. The store's
        // syncs take turns and each writes all that was appended before it, so this one covers every
        // group appended so far.
        do throws(WatchLinkError) { try store.sync() } catch {
            failStorage(error)
            return
        }
        let covered = nextLSN - 1
        syncProgress.withLock { $0.synced = max($0.synced, covered) }
        synced()
    }

    /// The records, the other effects in order, whether a sync was asked for, and whether a
    /// compaction was, of several inputs' actions.
    static func partition(
        _ lists: [[LinkAction]]
    ) -> (records: [DurableRecord], rest: [LinkAction], needsSync: Bool, compacts: Bool) {
        var records: [DurableRecord] = []
        var rest: [LinkAction] = []
        var needsSync = false
        var compacts = false
        // NB: both arrays sized once, from a first pass that only counts, not grown as they fill.
        var (recordCount, total) = (0, 0)
        for list in lists {
            total += list.count
            for case .persist in list { recordCount += 1 }
        }
        records.reserveCapacity(recordCount)
        rest.reserveCapacity(total - recordCount)
        for action in lists.joined() {
            switch action {
            case .persist(let record): records.append(record)
            case .sync: needsSync = true
            case .compact: compacts = true
            default: rest.append(action)
            }
        }
        return (records, rest, needsSync, compacts)
    }

    /// Performs the effects of several inputs with one durable sync (group commit), synchronously.
    ///
    /// Every record moves ahead of a single sync and every other effect follows it, so each
    /// input still sees "record, sync, then effects". A compaction moves after the sync, and its
    /// snapshot (taken when it is performed) holds the records moved ahead of it.
    func performGrouped(_ lists: [[LinkAction]]) {
        let (records, rest, needsSync, compacted) = Self.partition(lists)
        var actions = records.map { LinkAction.persist($0) }
        if needsSync || !records.isEmpty { actions.append(.sync) }
        if compacted { actions.append(.compact) }
        perform(actions + rest)
    }
}

/// What the sync loop is asked for and has done, shared by the connection and its sync queue.
struct SyncProgress: Sendable {
    /// The highest log sequence number appended and waiting for a sync.
    var requested: UInt64 = 0
    /// The highest log sequence number a finished sync covers.
    var synced: UInt64 = 0
    /// Whether the loop is running (or about to).
    var running = false
    /// The first sync that failed.
    var failure: WatchLinkError?
    /// Whether to wait before the next sync, from the syncs so far.
    var delay = CommitDelay()
    /// While the loop waits for a group to gather: the store's buffered records that end the wait.
    var gatherGoal: Int?
}
