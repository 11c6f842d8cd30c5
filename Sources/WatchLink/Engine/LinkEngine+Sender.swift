package import Foundation
package import PWAKitRetry

extension LinkEngine {
    /// Accepts a request into the outbox and transmits it if possible.
    ///
    /// A durable request is persisted and synced before `.accepted`; from then on it is
    /// settled exactly once per process (`.complete`) — with its response, or with a definite
    /// error (`timeout`, `expired`, `outbox_overflow`, `payload_too_large`, `not_reachable`).
    package mutating func submit(_ request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy, now: WatchTimestamp)
        -> [LinkAction]
    {
        var request = request
        let id = request.requestID
        do {
            try request.validate()
        } catch {
            return [.complete(id, .failure(error))]
        }
        if outbox[id] != nil {
            return [
                .complete(
                    id,
                    .failure(WatchLinkError(.invalidArgument, "request id is already pending", details: ["field": "requestID"])))
            ]
        }
        if request.deadline <= now {
            return [.complete(id, .failure(WatchLinkError(.timeout, "deadline already passed", details: ["field": "deadline"])))]
        }
        // NB: base64 growth plus envelope overhead; the exact check happens at transmission.
        let size = request.payload.count * 4 / 3 + request.typeKey.rawValue.utf8.count + 400
        let firstChannel = strategy.channel(reachable: true) ?? .message
        if size > SessionLimits.limit(for: firstChannel) {
            return [
                .complete(
                    id,
                    .failure(
                        WatchLinkError(
                            .payloadTooLarge, "request of about \(size) bytes exceeds the \(firstChannel) limit",
                            details: ["field": "payload", "limit": String(SessionLimits.limit(for: firstChannel))])))
            ]
        }
        var batch = SettleBatch()
        while outbox.count >= configuration.outboxLimit, let oldest = outboxOrder.first {
            batch.notify(.event(.outboxOverflow(oldest)))
            settle(
                oldest,
                .failure(
                    WatchLinkError(
                        .outboxOverflow, "outbox full (\(configuration.outboxLimit)); oldest request dropped",
                        details: ["requestID": oldest.uuidString])), now: now, into: &batch)
        }
        if strategy.isOrdered {
            request.sequence = nextSequence
            nextSequence += 1
            if !request.isDurable && nextSequence > reservedSequences {
                // NB: a non-durable request leaves no record of its sequence; reserve a block durably so
                // a restarted sender never reuses one while an older request may still be delivered.
                reservedSequences = nextSequence + Self.sequenceReservation
                batch.persist(.orderedNextSequence(reservedSequences))
            }
        }
        let entry = OutboxEntry(request: request, strategy: strategy, retry: retry)
        outbox[id] = Pending(entry: entry, nextAttemptAt: nil)
        if let sequence = request.sequence { outboxSequences.insert(sequence) }
        outboxOrder.append(id)
        if request.isDurable { batch.persist(.outboxAdded(entry)) }
        batch.notify(.accepted(id))
        if reportsRequestEvents { batch.notify(.event(.requestAccepted(id))) }
        let sends = transmit(id, now: now, batch: &batch)
        return finish(batch.take(then: sends), now: now)
    }

    /// The caller gave up on `id`: it leaves the outbox now, settled `cancelled` (durably, for a
    /// durable request, so a restart does not send it again).
    ///
    /// A request never handed to the session is simply gone. One already sent may still run at the
    /// receiver; its answer is then dropped and reported as ``LinkEvent/lateResponseDropped(_:)``.
    package mutating func cancel(_ id: UUID, now: WatchTimestamp) -> [LinkAction] {
        guard let pending = outbox[id] else { return [] }
        if pending.lastChannel != nil {
            cancelledAfterSending.append(id)
            if cancelledAfterSending.count > Self.cancelledMemory { cancelledAfterSending.removeFirst() }
        }
        var batch = SettleBatch()
        settle(
            id, .failure(WatchLinkError(.cancelled, "cancelled by the caller", details: ["requestID": id.uuidString])),
            now: now, into: &batch)
        return finish(batch.actions, now: now)
    }

    /// The session refused data handed to it.
    package mutating func transmitFailed(
        _ purpose: SendPurpose, channel: SessionChannel, data: Data, error: WatchLinkError, now: WatchTimestamp
    ) -> [LinkAction] {
        if error.code == .notReachable { isReachable = false }
        switch purpose {
        case .request(let id):
            guard let pending = outbox[id] else { return [] }
            var batch = SettleBatch()
            if error.code == .payloadTooLarge {
                settle(id, .failure(error), now: now, into: &batch)
                return finish(batch.actions, now: now)
            }
            noteFailure(into: &batch)
            let hasFallback = channel == .message && pending.entry.strategy != .messageOnly
            if hasFallback && isActivated && pending.entry.retry.allowsAttempt(after: pending.attempts) {
                let sends = transmit(id, now: now, batch: &batch)
                return finish(batch.actions + sends, now: now)
            }
            scheduleRetry(id, now: now, batch: &batch)
            return finish(batch.actions, now: now)
        case .response:
            if channel == .message && isActivated { return [.send(.userInfo, data, purpose: .response)] }
            return []
        case .context:
            return []
        }
    }

    /// Sends `id` on the channel its strategy picks now; records the attempt.
    mutating func transmit(_ id: UUID, now: WatchTimestamp, batch: inout SettleBatch) -> [LinkAction] {
        guard var pending = outbox[id] else { return [] }
        guard isActivated else {
            outbox[id]?.nextAttemptAt = nil
            return []
        }
        let strategy = pending.entry.strategy
        guard let channel = strategy.channel(reachable: isReachable) else {
            pending.attempts += 1
            outbox[id] = pending
            noteFailure(into: &batch)
            scheduleRetry(id, now: now, batch: &batch)
            return []
        }
        pending.attempts += 1
        pending.lastChannel = channel
        var request = pending.entry.request
        request.attempt = pending.attempts - 1
        request.floor = orderedFloor
        request.runsInArrivalOrder = strategy == .messageOnly
        if !request.isDurable {
            // NB: attempts addressed to no incarnation are refused unrun, so the first known one may be adopted.
            if pending.target == nil { pending.target = peerIncarnation }
            request.target = pending.target
        }
        let wait = channel == .message ? configuration.messageReplyTimeout : configuration.queuedReplyTimeout
        let backoff = pending.entry.retry.delay(forAttempt: pending.attempts, using: &random)
        pending.nextAttemptAt = now.advanced(by: wait + backoff)
        outbox[id] = pending
        if channel == .applicationContext {
            if !contextRequests.contains(id) { contextRequests.append(id) }
            contextPublishAt = now
            return []
        }
        let data = WireCodec.encode(.request(request))
        if data.count > SessionLimits.limit(for: channel) {
            settle(
                id,
                .failure(
                    WatchLinkError(
                        .payloadTooLarge, "\(data.count) bytes exceed the \(channel) limit",
                        details: ["field": "payload", "channel": channel.rawValue])), now: now, into: &batch)
            return []
        }
        return [.send(channel, data, purpose: .request(id))]
    }

    /// Every ordered request below this sequence is settled at this side.
    var orderedFloor: UInt64 {
        min(nextSequence, outboxSequences.min() ?? nextSequence)
    }

    mutating func scheduleRetry(_ id: UUID, now: WatchTimestamp, batch: inout SettleBatch) {
        guard let pending = outbox[id] else { return }
        guard pending.entry.retry.allowsAttempt(after: pending.attempts) else {
            settle(
                id,
                .failure(
                    WatchLinkError(
                        .notReachable, "counterpart not reachable; retries exhausted", details: ["requestID": id.uuidString])),
                now: now, into: &batch)
            return
        }
        let delay = max(pending.entry.retry.delay(forAttempt: pending.attempts, using: &random), .milliseconds(1))
        outbox[id]?.nextAttemptAt = now.advanced(by: delay)
        batch.notify(.event(.retryScheduled(id, attempt: pending.attempts, delay: delay)))
    }

    /// Removes `id` from the outbox with `outcome`: its record joins the batch, its completion follows the sync.
    mutating func settle(_ id: UUID, _ outcome: Result<Data, WatchLinkError>, now: WatchTimestamp, into batch: inout SettleBatch)
    {
        var recordsItsOwn: [UUID]? = nil
        settle(id, outcome, now: now, into: &batch, acknowledged: &recordsItsOwn)
    }

    /// ``settle(_:_:now:into:)``; with `acknowledged`, a durable request's id is added to it instead
    /// of a record of its own joining the batch (the caller records them all in one).
    mutating func settle(
        _ id: UUID, _ outcome: Result<Data, WatchLinkError>, now: WatchTimestamp, into batch: inout SettleBatch,
        acknowledged: inout [UUID]?
    ) {
        guard let pending = outbox.removeValue(forKey: id) else { return }
        // NB: read before its sequence leaves the set below (the floor does not read the outbox).
        let wasFloor = pending.entry.request.sequence.map { $0 == orderedFloor } ?? false
        if let sequence = pending.entry.request.sequence { outboxSequences.remove(sequence) }
        // NB: requests mostly settle oldest first, so the search stops near the front.
        if let index = outboxOrder.firstIndex(of: id) { outboxOrder.remove(at: index) }
        if wasFloor { resendOrderedHead(now: now) }
        if let index = contextRequests.firstIndex(of: id) {
            contextRequests.remove(at: index)
            contextPublishAt = contextPublishAt ?? now
        }
        let request = pending.entry.request
        if request.isDurable {
            if acknowledged != nil {
                acknowledged?.append(id)
            } else {
                let response = WireResponse(
                    requestID: id, idempotencyKey: request.idempotencyKey, outcome: outcome, createdAt: now)
                batch.persist(.outboxSettled(id, response))
            }
        }
        batch.notify(.complete(id, outcome))
        if reportsRequestEvents {
            let code: WatchLinkError.Code? = if case .failure(let error) = outcome { error.code } else { nil }
            batch.notify(.event(.requestSettled(id, code)))
        }
    }

    /// The ordered floor rose: re-send the new head now, so the receiver learns the floor and stops
    /// waiting for requests settled here (a non-durable one lost in a crash, one given up on).
    mutating func resendOrderedHead(now: WatchTimestamp) {
        var head: (UUID, UInt64)?
        for (id, pending) in outbox {
            guard let sequence = pending.entry.request.sequence, pending.lastChannel != nil else { continue }
            if head == nil || sequence < head!.1 { head = (id, sequence) }
        }
        guard let (id, _) = head, let due = outbox[id]?.nextAttemptAt, due > now else { return }
        outbox[id]?.nextAttemptAt = now
    }

    /// A response arrived for one of our requests.
    mutating func handleResponse(_ response: WireResponse, now: WatchTimestamp) -> [LinkAction] {
        if let responder = response.incarnation { peerIncarnation = responder }
        let skipped = applyFloor(response.floor, now: now)
        guard let pending = outbox[response.requestID] else {
            guard response.error?.code != .wrongIncarnation, forgetCancelled(response.requestID) else { return skipped }
            return skipped + [.event(.lateResponseDropped(response.requestID))]
        }
        if response.error?.code == .wrongIncarnation { return skipped + readdress(pending, response, now: now) }
        var batch = SettleBatch()
        noteSuccess(into: &batch)
        settle(response.requestID, response.outcome, now: now, into: &batch)
        return skipped.isEmpty ? batch.actions : skipped + batch.actions
    }

    /// Whether `id` was cancelled after it was sent (its answer is late); it is forgotten, so a
    /// second answer is not reported again.
    mutating func forgetCancelled(_ id: UUID) -> Bool {
        guard let index = cancelledAfterSending.firstIndex(of: id) else { return false }
        cancelledAfterSending.remove(at: index)
        return true
    }

    /// A cumulative acknowledgement arrived: each entry is the response it stands for, and the
    /// durable requests among them settle with one record.
    mutating func handleAcknowledgements(_ acknowledgements: WireAcknowledgements, now: WatchTimestamp) -> [LinkAction] {
        if let responder = acknowledgements.incarnation { peerIncarnation = responder }
        var actions = applyFloor(acknowledgements.floor, now: now)
        var batch = SettleBatch()
        var acknowledged: [UUID]? = []
        for entry in acknowledgements.entries {
            guard outbox[entry.requestID] != nil else {
                if forgetCancelled(entry.requestID) { batch.notify(.event(.lateResponseDropped(entry.requestID))) }
                continue
            }
            noteSuccess(into: &batch)
            settle(entry.requestID, .success(WireAcknowledgements.value), now: now, into: &batch, acknowledged: &acknowledged)
        }
        if let acknowledged, !acknowledged.isEmpty { batch.persist(.outboxAcknowledged(acknowledged)) }
        actions.append(taking: batch.actions)
        return actions
    }
}

extension LinkEngine {
    /// A receiver refused a non-durable request addressed to another incarnation.
    ///
    /// If the request was only ever addressed to nobody, it never ran and is re-sent to the
    /// responder now. If it was pinned to an incarnation that is no longer the responder, that
    /// incarnation may have run it before it went away: the request settles `outcome_unknown`
    /// rather than risk a second run.
    mutating func readdress(_ pending: Pending, _ refusal: WireResponse, now: WatchTimestamp) -> [LinkAction] {
        let id = pending.entry.request.requestID
        let addressed = refusal.error?.details["addressed"]
        var batch = SettleBatch()
        switch pending.target {
        case nil:
            let sends = transmit(id, now: now, batch: &batch)
            return finish(batch.actions + sends, now: now)
        case let pinned? where addressed == pinned.description && pinned != refusal.incarnation:
            settle(
                id,
                .failure(
                    WatchLinkError(
                        .outcomeUnknown,
                        "the receiver restarted while the non-durable request was in flight; it ran at most once",
                        details: ["requestID": id.uuidString, "incarnation": pinned.description])), now: now, into: &batch)
            return finish(batch.actions, now: now)
        default:
            // NB: a late refusal of an earlier, unaddressed attempt; the pinned attempt is still in flight.
            return []
        }
    }
}
