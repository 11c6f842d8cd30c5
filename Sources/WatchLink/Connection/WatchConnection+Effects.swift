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

    /// The most elements the pump's kept arrays keep room for between pumps.
    static let keptPumpCapacity = 64

    /// Processes everything that has arrived — session inputs, handler results, submissions — in
    /// that order, as one batch with a single durable sync (group commit).
    func pump() {
        pumpScheduled = false
        guard lifecycle == .running else { return }
        let now = currentTime()
        // NB: the inputs are swapped out of the bridge into the array kept for them, and the
        // engine's answers gather in another kept array; both are emptied after and swapped back:
        // no allocation per pump for either. Only a small array is kept: one that a burst made
        // large is let go, not held for the connection's life.
        var inputs: [SessionInput] = []
        var lists: [[LinkAction]] = []
        swap(&inputs, &drainedInputs)
        swap(&lists, &pumpedLists)
        bridge?.drain(into: &inputs)
        defer {
            inputs.removeAll(keepingCapacity: inputs.capacity <= Self.keptPumpCapacity)
            swap(&inputs, &drainedInputs)
            lists.removeAll(keepingCapacity: lists.capacity <= Self.keptPumpCapacity)
            swap(&lists, &pumpedLists)
        }
        for input in inputs {
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
        let actions = LinkAction.gatheringAcknowledgements(actions)
        // NB: several live messages (a group's requests or answers, released by one sync) go to
        // the session together, in one write on the socket transport instead of one each.
        guard Self.sendsSeveralMessages(actions) else { return performEach(actions) }
        session.sendingMessagesTogether { performEach(actions) }
    }

    /// Whether `actions` send more than one live message.
    static func sendsSeveralMessages(_ actions: [LinkAction]) -> Bool {
        var messages = 0
        for action in actions {
            guard case .send(.message, _, _) = action else { continue }
            messages += 1
            if messages > 1 { return true }
        }
        return false
    }

    /// ``perform(_:)``'s work.
    private func performEach(_ actions: [LinkAction]) {
        var pendingRecords: [DurableRecord] = []
        for action in actions {
            // NB: a failed write stops the rest at once, one this job's effects made (a failed
            // hand-off that settles a durable request commits) as well as its own.
            guard storageError == nil else { return }
            switch action {
            case .persist(let record):
                pendingRecords.append(record)
            case .sync:
                guard writeDurably(&pendingRecords) else { return }
            case .compact:
                guard writeDurably(&pendingRecords) else { return }
                do throws(WatchLinkError) { try store.replace(with: engine.snapshot(now: currentTime())) } catch {
                    failStorage(error)
                    return
                }
            case .send(let channel, let data, let purpose):
                send(channel, data, purpose)
            case .acknowledge:
                preconditionFailure("acknowledgements are gathered into sends by perform")
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
        pendingGroups.removeAll()
        end(with: failure)
        refreshObservers()
    }

    /// Stops the connection: every waiting caller gets `error`, and the streams finish.
    func end(with error: WatchLinkError) {
        lifecycle = .stopped
        wakeTask?.cancel()
        let waiting = syncWaiters
        syncWaiters.removeAll()
        for waiter in waiting { waiter.body(error) }
        for waiter in waiters.values { waiter.resume(returning: .failure(error)) }
        for waiter in acceptWaiters.values { waiter.resume(returning: .failure(error)) }
        waiters.removeAll()
        acceptWaiters.removeAll()
        for continuation in eventContinuations.values { continuation.finish() }
        eventContinuations.removeAll()
        for continuation in fileContinuations.values { continuation.finish() }
        fileContinuations.removeAll()
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
                    try session.transferUserInfo(data, for: purpose)
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
        guard lifecycle == .running, let next = engine.nextWakeupInPlace() else { return }
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
