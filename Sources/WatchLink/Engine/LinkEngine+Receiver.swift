package import Foundation

extension LinkEngine {
    /// Data arrived from the counterpart on `channel`.
    package mutating func receive(_ data: Data, on channel: SessionChannel, now: WatchTimestamp) -> [LinkAction] {
        let frame: WireFrame
        do {
            frame = try WireCodec.decode(data)
        } catch {
            var actions: [LinkAction] = [.event(.invalidFrame(error))]
            if let (id, key) = WireCodec.salvageRequestID(data) {
                actions += respond(WireResponse(requestID: id, idempotencyKey: key, outcome: .failure(error), createdAt: now))
            }
            return actions
        }
        switch frame {
        case .request(let request): return finish(handleRequest(request, on: channel, now: now), now: now)
        case .response(let response): return finish(handleResponse(response, now: now), now: now)
        case .acknowledgements(let acknowledgements): return finish(handleAcknowledgements(acknowledgements, now: now), now: now)
        case .context(let context): return finish(handleContext(context, now: now), now: now)
        }
    }

    /// The handler for an inbound call returned (or threw).
    package mutating func handlerFinished(
        idempotencyKey key: String, requestID: UUID, result: Result<Data, WatchLinkError>, now: WatchTimestamp
    ) -> [LinkAction] {
        let entry = InboxKey(key)
        guard case .started(let start, true, let durable)? = inbox[entry] else { return [] }
        var outcome = result
        if case .success(let value) = result, value.count > SessionLimits.userInfo - 1024 {
            outcome = .failure(
                WatchLinkError(
                    .payloadTooLarge, "response of \(value.count) bytes exceeds the transfer limit",
                    details: ["field": "response"]))
        }
        let response = WireResponse(requestID: requestID, idempotencyKey: key, outcome: outcome, createdAt: now)
        inbox[entry] = .finished(response, deadline: start.deadline, durable: durable)
        var actions: [LinkAction] = []
        actions.reserveCapacity(durable ? 3 : 1)
        if durable {
            actions.append(.persist(.inboxFinished(response, deadline: start.deadline)))
            actions.append(.sync)
        }
        respond(response, into: &actions)
        if orderedBusy == key {
            orderedBusy = nil
            actions += drainOrdered(now: now)
        }
        if messageBusy?.key == key {
            messageBusy = nil
            actions += drainMessages(now: now)
        }
        return finish(actions, now: now)
    }

    /// Answers `request` with `error` without running it.
    func refuse(_ request: WireRequest, _ error: WatchLinkError, now: WatchTimestamp) -> [LinkAction] {
        respond(
            WireResponse(
                requestID: request.requestID, idempotencyKey: request.idempotencyKey, outcome: .failure(error),
                createdAt: now))
    }

    func respond(_ response: WireResponse) -> [LinkAction] {
        var actions: [LinkAction] = []
        respond(response, into: &actions)
        return actions
    }

    /// Appends the sending of `response` (stamped with this incarnation and the ordered floor) to
    /// `actions`: as an acknowledgement when one can carry it, for the shell to gather with others.
    func respond(_ response: WireResponse, into actions: inout [LinkAction]) {
        guard isActivated else { return }
        var response = response
        response.incarnation = incarnation
        response.floor = orderedFloor
        let channel: SessionChannel = isReachable ? .message : .userInfo
        if WireAcknowledgements.canCarry(response) {
            actions.append(.acknowledge(channel, response))
        } else {
            actions.append(.send(channel, WireCodec.encode(.response(response)), purpose: .response))
        }
    }

    /// Routes an inbound request through the inbox: answer from it, run it, or buffer it for order.
    mutating func handleRequest(_ request: WireRequest, on channel: SessionChannel, now: WatchTimestamp) -> [LinkAction] {
        let skipped = applyFloor(request.floor, now: now)
        return skipped.isEmpty
            ? routeRequest(request, on: channel, now: now) : skipped + routeRequest(request, on: channel, now: now)
    }

    /// The counterpart has settled every ordered request below `floor`: stop waiting for them.
    ///
    /// Every frame carries the floor — requests (ordered or not, duplicates too), responses and
    /// contexts — so a gap left by a request the sender gave up on or lost in a crash is skipped
    /// as soon as any frame arrives, not only the next ordered request.
    mutating func applyFloor(_ floor: UInt64?, now: WatchTimestamp) -> [LinkAction] {
        guard let floor, floor > watermark + 1 else { return [] }
        watermark = floor - 1
        for buffered in orderedBuffer.keys.sorted() where buffered <= watermark { orderedBuffer[buffered] = nil }
        return [.persist(.orderedWatermark(watermark)), .sync] + drainOrdered(now: now)
    }

    mutating func routeRequest(_ request: WireRequest, on channel: SessionChannel, now: WatchTimestamp) -> [LinkAction] {
        let entry = InboxKey(request.idempotencyKey)
        if let answer = answerFromInbox(request, as: entry, now: now) { return answer }
        if !request.isDurable && request.target != incarnation {
            // NB: a non-durable request leaves no trace on disk; only the incarnation it is addressed
            // to can tell whether it already ran, so any other incarnation refuses it unrun.
            return refuse(
                request,
                WatchLinkError(
                    .wrongIncarnation, "non-durable request addressed to another incarnation; not run",
                    details: ["addressed": request.target?.description ?? "none"]),
                now: now)
        }
        if let sequence = request.sequence {
            if sequence <= watermark {
                return refuse(
                    request,
                    WatchLinkError(
                        .expired, "ordered request was settled at the sender before it arrived",
                        details: ["sequence": String(sequence)]),
                    now: now)
            }
            if orderedBuffer[sequence] == nil && orderedBuffer.count < configuration.orderedBufferLimit {
                orderedBuffer[sequence] = request
            }
            return drainOrdered(now: now)
        }
        if channel == .message && request.runsInArrivalOrder { return enqueueMessage(request, now: now) }
        return start(request, as: entry, now: now)
    }

    /// Queues a `messageOnly` request from the ordered `message` channel; its handler runs after those
    /// of such requests that arrived before it.
    ///
    /// NB: requests with a fallback strategy run concurrently even when they arrive as messages: any
    /// attempt of theirs may take another channel, so their order is not the channel's to keep.
    mutating func enqueueMessage(_ request: WireRequest, now: WatchTimestamp) -> [LinkAction] {
        let key = request.idempotencyKey
        let released = releaseOverdueMessage(now: now)
        guard !messageQueue.contains(where: { $0.idempotencyKey == key }) else { return released }
        // NB: beyond the limit the message is dropped unanswered, like a lost message: the sender retries.
        guard messageQueue.count < configuration.orderedBufferLimit else { return released }
        messageQueue.append(request)
        return released.isEmpty ? drainMessages(now: now) : released + drainMessages(now: now)
    }

    /// A handler still running past its request's deadline no longer holds up the channel: the
    /// requests queued behind it start (``tick(now:)`` calls this once the deadline has passed,
    /// so they do not wait for another message to arrive).
    mutating func releaseOverdueMessage(now: WatchTimestamp) -> [LinkAction] {
        guard let busy = messageBusy, now > busy.deadline else { return [] }
        messageBusy = nil
        return drainMessages(now: now)
    }

    /// Starts queued `message`-channel requests in arrival order, one at a time.
    mutating func drainMessages(now: WatchTimestamp) -> [LinkAction] {
        var actions: [LinkAction] = []
        while messageBusy == nil, !messageQueue.isEmpty {
            let next = messageQueue.removeFirst()
            let entry = InboxKey(next.idempotencyKey)
            if let answer = answerFromInbox(next, as: entry, now: now) {
                actions += answer
                continue
            }
            actions.append(taking: start(next, as: entry, now: now))
            if inbox[entry] != nil { messageBusy = (next.idempotencyKey, next.deadline) }
        }
        return actions
    }

    /// Answers a duplicate from the inbox; `nil` when the request is new. `entry` is the request's
    /// key in the inbox.
    mutating func answerFromInbox(_ request: WireRequest, as entry: InboxKey, now: WatchTimestamp) -> [LinkAction]? {
        let key = request.idempotencyKey
        switch inbox[entry] {
        case nil:
            return nil
        case .finished(var response, _, _)?:
            response.requestID = request.requestID
            return [.event(.duplicateSuppressed(idempotencyKey: key))] + respond(response)
        case .started(_, true, _)?:
            return [.event(.duplicateSuppressed(idempotencyKey: key))]
        case .started(let start, false, let durable)?:
            // NB: the handler was started before a crash and its result never saved; it must not run again.
            let error = WatchLinkError(
                .outcomeUnknown, "the handler ran but its result was lost in a crash", details: ["idempotencyKey": key])
            let response = WireResponse(
                requestID: request.requestID, idempotencyKey: key, outcome: .failure(error), createdAt: now)
            inbox[entry] = .finished(response, deadline: start.deadline, durable: durable)
            var actions: [LinkAction] = [.event(.outcomeUnknown(idempotencyKey: key))]
            if durable { actions += [.persist(.inboxFinished(response, deadline: start.deadline)), .sync] }
            return actions + respond(response)
        }
    }

    /// Starts the next ordered requests in sequence, one at a time.
    mutating func drainOrdered(now: WatchTimestamp) -> [LinkAction] {
        var actions: [LinkAction] = []
        while orderedBusy == nil, let next = orderedBuffer.removeValue(forKey: watermark + 1) {
            watermark += 1
            let entry = InboxKey(next.idempotencyKey)
            if let answer = answerFromInbox(next, as: entry, now: now) {
                actions += answer
                continue
            }
            let started = start(next, as: entry, now: now)
            if inbox[entry] != nil { orderedBusy = next.idempotencyKey }
            actions.append(taking: started)
        }
        return actions
    }

    /// Marks a new request started (durably, if durable) and asks the shell to run it; `entry` is its
    /// key in the inbox.
    mutating func start(_ request: WireRequest, as entry: InboxKey, now: WatchTimestamp) -> [LinkAction] {
        let key = request.idempotencyKey
        var actions: [LinkAction] = []
        // NB: sized once for a durable start (its mark, the sync and the run), not grown twice.
        actions.reserveCapacity(3)
        if let horizon = inboxHorizon, request.deadline <= horizon {
            // NB: it may have run and been forgotten when the clock read later than it does now, so
            // it is not run, and the answer says it may have run (not "expired": that means it did not).
            actions.append(.event(.outcomeUnknown(idempotencyKey: key)))
            if let sequence = request.sequence { actions += [.persist(.orderedWatermark(sequence))] }
            return actions
                + refuse(
                    request,
                    WatchLinkError(
                        .outcomeUnknown,
                        "it may have run already: its deadline is no later than one this device has forgotten",
                        details: ["idempotencyKey": key]),
                    now: now)
        }
        if now > request.deadline {
            if let sequence = request.sequence { actions += [.persist(.orderedWatermark(sequence))] }
            return actions
                + refuse(
                    request,
                    WatchLinkError(
                        .expired, "arrived after its deadline; not run", details: ["requestID": request.requestID.uuidString]),
                    now: now)
        }
        let mark = InboxStart(
            idempotencyKey: key, requestID: request.requestID, deadline: request.deadline, sequence: request.sequence)
        inbox[entry] = .started(mark, running: true, durable: request.isDurable)
        if request.isDurable {
            actions.append(.persist(.inboxStarted(mark)))
            actions.append(.sync)
        }
        actions.append(
            .run(
                InboundCall(
                    typeKey: request.typeKey, payload: request.payload, requestID: request.requestID, idempotencyKey: key,
                    isDurable: request.isDurable)
            ))
        return actions
    }
}
