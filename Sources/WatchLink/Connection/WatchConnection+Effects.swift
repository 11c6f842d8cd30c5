import Foundation
import PWAKitRetry
import Synchronization

extension WatchConnection {
    /// Queues a submission; submissions that arrive together share one durable sync (group commit).
    func enqueue(_ request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy) {
        guard request.isDurable else {
            // NB: nothing to sync, so nothing to batch: submit now and save a hop.
            commit([engine.submit(request, strategy: strategy, retry: retry, now: currentTime())])
            return
        }
        queuedSubmissions.append((request, strategy, retry))
        schedulePump()
    }

    /// Queues a handler's result; results that finish together share one durable sync.
    func handlerFinished(_ call: InboundCall, _ result: Result<Data, WatchLinkError>) {
        guard lifecycle == .running else { return }
        guard call.isDurable else {
            // NB: a non-durable result is not written, so there is no sync to share: answer now.
            commit([
                engine.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: currentTime())
            ])
            return
        }
        finishedCalls.append((call, result))
        schedulePump()
    }

    /// Queues a pump behind the jobs already queued, so that what they bring joins its batch.
    func schedulePump() {
        guard !pumpScheduled else { return }
        pumpScheduled = true
        queue.run { self.pump() }
    }

    /// Processes everything that has arrived — session inputs, handler results, submissions — in
    /// that order, as one batch with a single durable sync (group commit).
    func pump() {
        pumpScheduled = false
        guard lifecycle == .running else { return }
        let now = currentTime()
        var lists: [[LinkAction]] = []
        for input in bridge?.drain() ?? [] {
            switch input {
            case .activated(let state):
                if state == .activated { lists.append(engine.activate(now: now)) }
            case .reachability(let reachable):
                lists.append(engine.setReachable(reachable, now: now))
            case .data(let data, let channel):
                lists.append(engine.receive(data, on: channel, now: now))
            case .file(let file):
                for continuation in fileContinuations.values { continuation.yield(file) }
                lists.append([.event(.fileReceived(file.transfer))])
            case .fileFinished(let transfer, let error):
                lists.append([.event(.fileTransferFinished(transfer.id, error?.code))])
            case .fileRejected(let error):
                lists.append([.event(.fileRejected(error))])
            }
        }
        let finished = finishedCalls
        finishedCalls.removeAll()
        for (call, result) in finished {
            lists.append(
                engine.handlerFinished(idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: now))
        }
        let submissions = queuedSubmissions
        queuedSubmissions.removeAll()
        for (request, strategy, retry) in submissions {
            lists.append(engine.submit(request, strategy: strategy, retry: retry, now: now))
        }
        commit(lists)
    }

    /// Performs the effects of several inputs after a durable sync that runs off the actor.
    ///
    /// The records are appended at once (the store's double buffer takes them even while a sync
    /// writes) and the group gets the next log sequence number; its other effects wait in
    /// ``pendingGroups`` until the sync loop reports a sync that covers that number. The loop
    /// starts the next sync as soon as one returns if more was appended meanwhile, so the disk never
    /// waits for the actor, and groups grow while a sync runs. Effects run in the order the engine
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
        var records: [DurableRecord] = []
        var rest: [LinkAction] = []
        var needsSync = false
        var compacts = false
        for list in lists {
            for action in list {
                switch action {
                case .persist(let record): records.append(record)
                case .sync: needsSync = true
                case .compact: compacts = true
                default: rest.append(action)
                }
            }
        }
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
        let start = syncProgress.withLock { progress in
            progress.requested = lsn
            guard !progress.running else { return false }
            progress.running = true
            return true
        }
        if start { startSyncLoop() }
        return lsn
    }

    /// Calls `body` once the effects committed under `lsn` were performed, with `nil`, or with the
    /// error that ended the connection first; at once when `lsn` is `nil`.
    func afterSync(_ lsn: UInt64?, _ body: @escaping (WatchLinkError?) -> Void) {
        guard let lsn, storageError == nil else { return body(storageError) }
        syncWaiters.append((lsn, body))
    }

    /// Syncs on ``syncQueue`` until every requested group is covered, reporting each sync to the actor.
    private func startSyncLoop() {
        let store = self.store
        syncQueue.async {
            while true {
                // NB: read before the sync: every group numbered up to `target` was appended before
                // `requested` was raised to it, so this sync covers it.
                let target = self.syncProgress.withLock { $0.requested }
                let failure: WatchLinkError?
                do throws(WatchLinkError) {
                    try store.sync()
                    failure = nil
                } catch { failure = error }
                let more = self.syncProgress.withLock { progress in
                    if let failure {
                        progress.failure = progress.failure ?? failure
                    } else {
                        progress.synced = max(progress.synced, target)
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
        while let group = pendingGroups.first, group.lsn <= synced {
            pendingGroups.removeFirst()
            perform(group.effects)
            guard storageError == nil else { return }
        }
        let covered = syncWaiters.prefix { $0.lsn <= synced }
        syncWaiters.removeFirst(covered.count)
        for waiter in covered { waiter.body(nil) }
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

    /// Performs the effects of several inputs with one durable sync (group commit), synchronously.
    ///
    /// Every record moves ahead of a single sync and every other effect follows it, so each
    /// input still sees "record, sync, then effects". A compaction is replaced by a fresh
    /// snapshot taken after the batch, so records moved ahead of it are not lost.
    func performGrouped(_ lists: [[LinkAction]]) {
        var records: [LinkAction] = []
        var rest: [LinkAction] = []
        var needsSync = false
        var compacted = false
        for list in lists {
            for action in list {
                switch action {
                case .persist: records.append(action)
                case .sync: needsSync = true
                case .compact: compacted = true
                default: rest.append(action)
                }
            }
        }
        var actions = records
        if needsSync || !records.isEmpty { actions.append(.sync) }
        if compacted { actions.append(.compact(engine.snapshot(now: currentTime()))) }
        perform(actions + rest)
    }

    /// Runs a handler: an inline one here and now, an async one in a task started on this thread
    /// (it runs here until its first suspension).
    func runHandler(_ call: InboundCall) {
        guard lifecycle == .running else { return }
        switch handlers.entry(for: call.typeKey) {
        case .inline(let handler):
            let result: Result<Data, WatchLinkError>
            do throws(WatchLinkError) { result = .success(try handler(call.payload)) } catch { result = .failure(error) }
            handlerFinished(call, result)
        case .async(let handler):
            Task.immediate {
                let result: Result<Data, WatchLinkError>
                do throws(WatchLinkError) { result = .success(try await handler(call.payload)) } catch {
                    result = .failure(error)
                }
                self.queue.run { self.handlerFinished(call, result) }
            }
        case nil:
            handlerFinished(call, .failure(HandlerRegistry.missing(call.typeKey)))
        }
    }

    func tick() {
        guard lifecycle == .running else { return }
        wakeAt = nil
        commit([engine.tick(now: currentTime())])
    }

    /// Performs the engine's effects in order.
    ///
    /// A failed write stops the connection at once: no effect that the write was meant to make
    /// safe (accepting a request, running a handler, answering) is performed.
    func perform(_ actions: [LinkAction]) {
        guard storageError == nil else { return }
        var pendingRecords: [DurableRecord] = []
        for action in actions {
            switch action {
            case .persist(let record):
                pendingRecords.append(record)
            case .sync:
                guard writeDurably(&pendingRecords) else { return }
            case .compact(let records):
                guard writeDurably(&pendingRecords) else { return }
                do throws(WatchLinkError) { try store.replace(with: records) } catch {
                    failStorage(error)
                    return
                }
            case .send(let channel, let data, let purpose):
                send(channel, data, purpose)
            case .run(let call):
                // NB: run as the next job, not here: a handler may call back into the connection,
                // and this job's effects come first.
                queue.run { self.runHandler(call) }
            case .accepted(let id):
                acceptWaiters.removeValue(forKey: id)?.resume(returning: .success(Data()))
            case .complete(let id, let outcome):
                if let waiter = waiters.removeValue(forKey: id) {
                    waiter.resume(returning: outcome)
                } else if let waiter = acceptWaiters.removeValue(forKey: id) {
                    waiter.resume(returning: outcome)
                }
            case .stateChanged(let key, let entry):
                sharedStates[key]?.apply(entry)
            case .event(let event):
                for continuation in eventContinuations.values { continuation.yield(event) }
            }
        }
        if !pendingRecords.isEmpty {
            do throws(WatchLinkError) { try store.append(pendingRecords) } catch {
                failStorage(error)
                return
            }
        }
        refreshObservers()
        scheduleWake()
    }

    /// Appends and syncs `records`; on failure stops the connection and returns `false`.
    private func writeDurably(_ records: inout [DurableRecord]) -> Bool {
        do throws(WatchLinkError) {
            if !records.isEmpty { try store.append(records) }
            try store.sync()
        } catch {
            failStorage(error)
            return false
        }
        records.removeAll()
        return true
    }

    /// The durable log can no longer be trusted: stop, and fail every waiting caller with `error`.
    ///
    /// NB: the engine's memory is now ahead of its disk, so carrying on could promise what a
    /// crash would forget; later calls throw the same error.
    func failStorage(_ error: WatchLinkError) {
        let failure =
            error.code == .storageFailed
            ? error
            : WatchLinkError(
                .storageFailed, error.message, details: error.details.merging(["cause": error.code.rawValue]) { a, _ in a })
        storageError = failure
        lifecycle = .stopped
        pendingGroups.removeAll()
        let waiting = syncWaiters
        syncWaiters.removeAll()
        for waiter in waiting { waiter.body(failure) }
        wakeTask?.cancel()
        for waiter in waiters.values { waiter.resume(returning: .failure(failure)) }
        for waiter in acceptWaiters.values { waiter.resume(returning: .failure(failure)) }
        waiters.removeAll()
        acceptWaiters.removeAll()
        for continuation in eventContinuations.values { continuation.finish() }
        eventContinuations.removeAll()
        for continuation in fileContinuations.values { continuation.finish() }
        fileContinuations.removeAll()
        refreshObservers()
    }

    /// Hands `data` to the session: a live message here and now; user info and contexts, which a
    /// session may persist first (the socket transport syncs them to disk), in order on
    /// ``transferQueue``, so that no job waits on a disk, whatever thread runs it.
    private func send(_ channel: SessionChannel, _ data: Data, _ purpose: SendPurpose) {
        guard channel != .message else {
            do throws(WatchLinkError) { try session.sendMessage(data) } catch {
                // NB: through `commit`: a failure may settle a durable request, whose record then
                // joins a group commit rather than being synced here.
                commit([engine.transmitFailed(purpose, channel: channel, data: data, error: error, now: currentTime())])
            }
            return
        }
        let session = self.session
        transferQueue.async {
            do throws(WatchLinkError) {
                if channel == .userInfo {
                    try session.transferUserInfo(data)
                } else {
                    try session.updateApplicationContext(data)
                }
            } catch {
                self.queue.run {
                    guard self.lifecycle == .running else { return }
                    self.commit([
                        self.engine.transmitFailed(purpose, channel: channel, data: data, error: error, now: self.currentTime())
                    ])
                }
            }
        }
    }

    private func refreshObservers() {
        var snapshot = WatchLinkStatus.Snapshot()
        snapshot.activationState = engine.isActivated ? .activated : session.activationState
        snapshot.isReachable = engine.isReachable
        snapshot.pendingCount = engine.pendingCount
        snapshot.health = engine.health.health
        status.update(snapshot)
        for (key, state) in sharedStates { state.setUnconfirmed(engine.isUnconfirmed(key)) }
    }

    private func scheduleWake() {
        guard lifecycle == .running, let next = engine.nextWakeup else { return }
        if let wakeAt, wakeAt <= next { return }
        wakeTask?.cancel()
        wakeAt = next
        let sleeper = self.sleeper
        wakeTask = Task { [weak self] in
            do { try await sleeper(next) } catch { return }
            guard let self else { return }
            self.queue.run { self.tick() }
        }
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
}
