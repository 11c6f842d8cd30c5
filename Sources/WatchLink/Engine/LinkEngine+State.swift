package import Foundation

extension LinkEngine {
    /// Sets how concurrent updates of the shared state `key` are reconciled (default: latest wins).
    package mutating func registerState(_ key: String, resolution: StateResolution) {
        resolutions[key] = resolution
    }

    /// A local update of the shared state `key`: saved durably, then published (coalesced).
    ///
    /// Updates made before activation are kept and published once the session activates.
    package mutating func updateState(_ key: String, value: Data, now: WatchTimestamp) -> [LinkAction] {
        var version =
            states[key]?.version
            ?? StateVersion(
                sequenceNumber: 0, timestamp: now, origin: origin, updateID: UUID.fromBytes(Array(repeating: 0, count: 16)),
                phoneCounter: 0, watchCounter: 0)
        if origin == .phone { version.phoneCounter += 1 } else { version.watchCounter += 1 }
        version.sequenceNumber = version.counter(of: origin)
        version.timestamp = now
        version.origin = origin
        version.updateID = random.uuid()
        let entry = StateEntry(value: value, version: version)
        states[key] = entry
        if contextPublishAt == nil { contextPublishAt = now.advanced(by: configuration.stateCoalescing) }
        return finish([.persist(.state(key: key, entry)), .sync, .stateChanged(key: key, entry)], now: now)
    }

    /// Checks that the application context still fits its 262,144-byte limit with `value` stored under `key`.
    ///
    /// - Throws: `payload_too_large`, naming the key, so the updater learns of it instead of the
    ///   context silently never being published.
    package func checkStateFits(_ key: String, value: Data) throws(WatchLinkError) {
        var candidate = states
        let version =
            states[key]?.version
            ?? StateVersion(
                sequenceNumber: 0, timestamp: WatchTimestamp(milliseconds: 0), origin: origin,
                updateID: UUID.fromBytes(Array(repeating: 0, count: 16)), phoneCounter: 0, watchCounter: 0)
        candidate[key] = StateEntry(value: value, version: version)
        // NB: room for the version counters to grow; the exact check happens at publication.
        let size = WireCodec.encode(.context(WireContext(states: candidate, requests: []))).count + 64
        if size > SessionLimits.applicationContext {
            throw WatchLinkError(
                .payloadTooLarge,
                "shared state would make the application context \(size) bytes (limit \(SessionLimits.applicationContext))",
                details: ["field": "value", "key": key, "limit": String(SessionLimits.applicationContext)])
        }
    }

    /// Whether some shared-state value has not yet been confirmed by the counterpart.
    package var hasUnconfirmedState: Bool {
        states.contains { key, entry in remoteStates[key]?.version.compare(to: entry.version) != .same }
    }

    /// Whether the shared state `key` has local changes the counterpart has not confirmed.
    package func isUnconfirmed(_ key: String) -> Bool {
        guard let entry = states[key] else { return false }
        return remoteStates[key]?.version.compare(to: entry.version) != .same
    }

    /// Merges the counterpart's context: its shared-state entries and context-routed requests.
    mutating func handleContext(_ context: WireContext, now: WatchTimestamp) -> [LinkAction] {
        var actions = applyFloor(context.floor, now: now)
        for key in context.states.keys.sorted() {
            actions += mergeRemote(key, context.states[key]!, now: now)
        }
        // NB: the context repeats every pending request; answer each transmission attempt once.
        var answered: [String: Int] = [:]
        for request in context.requests {
            let key = request.idempotencyKey
            answered[key] = request.attempt
            if let previous = contextAnswered[key], previous >= request.attempt { continue }
            actions += handleRequest(request, on: .applicationContext, now: now)
        }
        contextAnswered = answered
        return actions
    }

    mutating func mergeRemote(_ key: String, _ remote: StateEntry, now: WatchTimestamp) -> [LinkAction] {
        remoteStates[key] = remote
        guard let local = states[key] else { return adopt(key, remote, now: now) }
        switch remote.version.compare(to: local.version) {
        case .same:
            return []
        case .older:
            // NB: never apply an older version; republish ours so the counterpart catches up.
            contextPublishAt = contextPublishAt ?? now
            return []
        case .newer:
            return adopt(key, remote, now: now)
        case .concurrent:
            let resolved = (resolutions[key] ?? .latestWins).resolve(local, remote)
            return [.event(.conflictResolved(key: key))] + adopt(key, resolved, now: now)
        }
    }

    mutating func adopt(_ key: String, _ entry: StateEntry, now: WatchTimestamp) -> [LinkAction] {
        states[key] = entry
        // NB: publishing what we adopted is how the counterpart learns it was received (the acknowledgement).
        contextPublishAt = contextPublishAt ?? now.advanced(by: configuration.stateCoalescing)
        return [.persist(.state(key: key, entry)), .stateChanged(key: key, entry)]
    }

    /// Publishes the whole context: every shared-state entry and every context-routed request.
    mutating func publishContext(now: WatchTimestamp) -> [LinkAction] {
        contextPublishAt = nil
        lastContextPublish = now
        var requests: [WireRequest] = []
        for id in contextRequests {
            guard let pending = outbox[id] else { continue }
            var request = pending.entry.request
            request.attempt = max(pending.attempts - 1, 0)
            if !request.isDurable { request.target = pending.target }
            requests.append(request)
        }
        var data = WireCodec.encode(.context(WireContext(states: states, requests: requests, floor: orderedFloor)))
        var actions: [LinkAction] = []
        if data.count > SessionLimits.applicationContext && !requests.isEmpty {
            var batch = SettleBatch()
            for id in contextRequests {
                settle(
                    id,
                    .failure(
                        WatchLinkError(
                            .payloadTooLarge, "application context would exceed \(SessionLimits.applicationContext) bytes",
                            details: ["field": "payload", "channel": "applicationContext"])), now: now, into: &batch)
            }
            contextPublishAt = nil
            actions += batch.actions
            data = WireCodec.encode(.context(WireContext(states: states, requests: [], floor: orderedFloor)))
        }
        return actions + [.send(.applicationContext, data, purpose: .context)]
    }
}
