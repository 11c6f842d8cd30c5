import Foundation

extension WatchConnection {
    /// Queues a submission; submissions that arrive together share one durable sync (group commit).
    func enqueue(_ request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy) {
        guard request.isDurable else {
            // NB: nothing to sync, so nothing to batch: submit now and save a hop.
            perform(engine.submit(request, strategy: strategy, retry: retry, now: currentTime()))
            return
        }
        queuedSubmissions.append((request, strategy, retry))
        guard !flushScheduled else { return }
        flushScheduled = true
        Task { self.flushSubmissions() }
    }

    func flushSubmissions() {
        flushScheduled = false
        let batch = queuedSubmissions
        queuedSubmissions.removeAll()
        let now = currentTime()
        var durable: [LinkAction] = []
        var rest: [LinkAction] = []
        for (request, strategy, retry) in batch {
            for action in engine.submit(request, strategy: strategy, retry: retry, now: now) {
                switch action {
                case .persist: durable.append(action)
                case .sync: break
                default: rest.append(action)
                }
            }
        }
        // NB: moving every record ahead of one sync keeps each request's order (record, sync, effects).
        perform(durable.isEmpty ? rest : durable + [.sync] + rest)
    }

    func handle(_ input: SessionInput) {
        guard lifecycle == .running else { return }
        let now = currentTime()
        switch input {
        case .activated(let state):
            if state == .activated { perform(engine.activate(now: now)) }
        case .reachability(let reachable):
            perform(engine.setReachable(reachable, now: now))
        case .data(let data, let channel):
            perform(engine.receive(data, on: channel, now: now))
        }
    }

    func handlerFinished(_ call: InboundCall, _ result: Result<Data, WatchLinkError>) {
        guard lifecycle == .running else { return }
        perform(
            engine.handlerFinished(
                idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: currentTime()))
    }

    func tick() {
        guard lifecycle == .running else { return }
        wakeAt = nil
        perform(engine.tick(now: currentTime()))
    }

    /// Performs the engine's effects in order.
    func perform(_ actions: [LinkAction]) {
        var pendingRecords: [DurableRecord] = []
        for action in actions {
            switch action {
            case .persist(let record):
                pendingRecords.append(record)
            case .sync:
                writeDurably(&pendingRecords)
            case .compact(let records):
                writeDurably(&pendingRecords)
                do { try store.replace(with: records) } catch { storageError = error }
            case .send(let channel, let data, let purpose):
                send(channel, data, purpose)
            case .run(let call):
                let handlers = self.handlers
                Task {
                    let result: Result<Data, WatchLinkError>
                    do throws(WatchLinkError) {
                        result = .success(try await handlers.run(call.typeKey, payload: call.payload))
                    } catch { result = .failure(error) }
                    self.handlerFinished(call, result)
                }
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
            do { try store.append(pendingRecords) } catch { storageError = error }
        }
        refreshObservers()
        scheduleWake()
    }

    private func writeDurably(_ records: inout [DurableRecord]) {
        do {
            if !records.isEmpty { try store.append(records) }
            try store.sync()
        } catch {
            storageError = error
        }
        records.removeAll()
    }

    private func send(_ channel: SessionChannel, _ data: Data, _ purpose: SendPurpose) {
        do {
            switch channel {
            case .message: try session.sendMessage(data)
            case .userInfo: try session.transferUserInfo(data)
            case .applicationContext: try session.updateApplicationContext(data)
            }
        } catch {
            perform(engine.transmitFailed(purpose, channel: channel, data: data, error: error, now: currentTime()))
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
            await self?.tick()
        }
    }
}
