package import Foundation
package import PWAKitRetry

/// The protocol core of one device: outbox, inbox, ordered channel and shared state.
///
/// A pure state machine: every input is a method taking the current time and returning the
/// effects to perform, in order (``LinkAction``). It never reads a clock, sleeps or does I/O,
/// so it is tested synchronously and driven identically by the chaos simulation, the
/// two-process transport and WatchConnectivity.
package struct LinkEngine: Sendable {
    /// Tunables; the defaults follow the seed.
    package typealias Configuration = WatchLinkConfiguration

    struct Pending: Sendable {
        var entry: OutboxEntry
        var attempts = 0
        var nextAttemptAt: WatchTimestamp?
        var lastChannel: SessionChannel?
        /// The receiver incarnation a non-durable request is pinned to once sent to one.
        var target: LinkIncarnation?
    }

    enum InboxState: Sendable {
        case started(InboxStart, running: Bool, durable: Bool)
        // NB: boxed, so an entry of the inbox stays small (a response is several times a start's
        // size): the table moves its entries as it grows.
        indirect case finished(WireResponse, deadline: WatchTimestamp, durable: Bool)
    }

    /// The device this engine runs on.
    package let origin: DeviceOrigin
    /// The tunables.
    package var configuration: Configuration
    var random: SeededRandom
    /// Whether the session has activated.
    package private(set) var isActivated = false
    /// Whether live messages can be sent.
    package internal(set) var isReachable = false
    /// Consecutive-failure health.
    package internal(set) var health: HealthTracker
    /// This run of the engine; non-durable requests addressed to another incarnation are refused.
    package internal(set) var incarnation: LinkIncarnation
    /// The counterpart's incarnation, as last heard from it.
    package internal(set) var peerIncarnation: LinkIncarnation?

    var outbox: [UUID: Pending] = [:]
    var outboxOrder: [UUID] = []
    /// The sequences of the ordered requests in the outbox, so the ordered floor (sent with every
    /// frame) is found among those alone, not by a scan of the whole outbox.
    var outboxSequences: Set<UInt64> = []
    var nextSequence: UInt64 = 1
    /// Every ordered sequence below this may have been used; a restart continues from it.
    var reservedSequences: UInt64 = 1
    /// How many ordered sequences one durable reservation covers for non-durable requests.
    static let sequenceReservation: UInt64 = 1024
    var contextRequests: [UUID] = []
    var inbox: [InboxKey: InboxState] = [:]
    /// The latest deadline of an inbox entry pruning forgot: a request with a deadline no later
    /// than this may have run already, so it is refused. Deadlines are the sender's, so the horizon
    /// does not move with this device's clock; it is kept in the log, so a clock that ran ahead
    /// (and let pruning forget an entry early) and then moves back cannot run that request again.
    var inboxHorizon: WatchTimestamp?
    var watermark: UInt64 = 0
    var orderedBuffer: [UInt64: WireRequest] = [:]
    var orderedBusy: String?
    /// Unsequenced requests that arrived on the `message` channel, waiting for the one running.
    var messageQueue: [WireRequest] = []
    /// The `message`-channel request whose handler is running, with its deadline.
    var messageBusy: (key: String, deadline: WatchTimestamp)?
    var states: [String: StateEntry] = [:]
    var remoteStates: [String: StateEntry] = [:]
    var resolutions: [String: StateResolution] = [:]
    var contextPublishAt: WatchTimestamp?
    var lastContextPublish: WatchTimestamp?
    /// Records in the durable log: the last snapshot's and those appended since.
    var recordsInLog = 0
    /// Records appended since compaction was last considered.
    var recordsSinceCheck = 0
    /// The inbox size at which it is pruned next, whether or not the log is compacted: non-durable
    /// requests write no records, so compaction alone would never prune them.
    var inboxPruneAt = LinkEngine.inboxPruneFloor
    /// The smallest ``inboxPruneAt``.
    static let inboxPruneFloor = 1024
    /// How many times compaction was considered (for tests of its spacing).
    package private(set) var compactionChecks = 0
    var contextAnswered: [String: Int] = [:]
    /// Whether each request's `requestAccepted` and `requestSettled` events are made (the shell turns
    /// this off while no one listens to its events: two boxed events a request, made for nothing).
    package var reportsRequestEvents = true
    /// Requests cancelled after they were sent, oldest first: a late answer is dropped and reported.
    var cancelledAfterSending: [UUID] = []
    /// Most cancelled requests remembered for reporting late answers.
    static let cancelledMemory = 1024

    /// Creates an engine with empty durable state.
    package init(
        origin: DeviceOrigin, configuration: Configuration = Configuration(), random: SeededRandom,
        health: HealthTracker = HealthTracker()
    ) {
        self.origin = origin
        self.configuration = configuration
        self.random = random
        self.health = health
        self.incarnation = LinkIncarnation(boot: 0, nonce: self.random.next())
    }

    /// The number of requests in the outbox.
    package var pendingCount: Int { outbox.count }

    /// The ids of the requests in the outbox, oldest first.
    package var pendingRequestIDs: [UUID] { outboxOrder }

    /// The current shared-state entry for `key`.
    package func stateEntry(_ key: String) -> StateEntry? { states[key] }

    /// Every shared-state entry, by key.
    package var stateEntries: [String: StateEntry] { states }

    /// Rebuilds the engine from its durable log and the session's persisted received context.
    package mutating func recover(from records: [DurableRecord], receivedContext: Data?, now: WatchTimestamp) -> [LinkAction] {
        var boot = incarnation.boot
        for record in records {
            switch record {
            case .outboxAdded(let entry):
                let id = entry.request.requestID
                if outbox[id] == nil { outboxOrder.append(id) }
                if let replaced = outbox[id]?.entry.request.sequence { outboxSequences.remove(replaced) }
                outbox[id] = Pending(entry: entry, nextAttemptAt: now)
                if let sequence = entry.request.sequence {
                    nextSequence = max(nextSequence, sequence + 1)
                    outboxSequences.insert(sequence)
                }
            case .outboxSettled(let id, _):
                if let sequence = outbox.removeValue(forKey: id)?.entry.request.sequence { outboxSequences.remove(sequence) }
                outboxOrder.removeAll { $0 == id }
            case .outboxAcknowledged(let ids):
                for id in ids {
                    if let sequence = outbox.removeValue(forKey: id)?.entry.request.sequence { outboxSequences.remove(sequence) }
                }
                let gone = Set(ids)
                outboxOrder.removeAll { gone.contains($0) }
            case .inboxStarted(let start):
                inbox[InboxKey(start.idempotencyKey)] = .started(start, running: false, durable: true)
                if let sequence = start.sequence { watermark = max(watermark, sequence) }
            case .inboxFinished(let response, let deadline):
                inbox[InboxKey(response.idempotencyKey)] = .finished(response, deadline: deadline, durable: true)
            case .orderedWatermark(let value): watermark = max(watermark, value)
            case .orderedNextSequence(let value): nextSequence = max(nextSequence, value)
            case .boot(let value): boot = max(boot, value)
            case .inboxHorizon(let value): inboxHorizon = max(inboxHorizon ?? value, value)
            case .state(let key, let entry):
                if let current = states[key], entry.version.compare(to: current.version) == .older { continue }
                states[key] = entry
            }
        }
        reservedSequences = nextSequence
        // NB: the snapshot carries the new boot count and is synced before anything else happens.
        incarnation = LinkIncarnation(boot: boot + 1, nonce: random.next())
        var actions: [LinkAction] = [.compact]
        recordsInLog = records.count
        recordsSinceCheck = 0
        if let receivedContext, case .context(let context)? = try? WireCodec.decode(receivedContext) {
            actions += handleContext(context, now: now)
        }
        return actions
    }

    /// The session finished activating: flush everything queued before activation.
    package mutating func activate(now: WatchTimestamp) -> [LinkAction] {
        isActivated = true
        var actions: [LinkAction] = [.event(.activated)]
        for id in outboxOrder where outbox[id]?.nextAttemptAt == nil || outbox[id]?.attempts == 0 {
            outbox[id]?.nextAttemptAt = now
        }
        if !states.isEmpty { contextPublishAt = now }
        actions += tick(now: now)
        return actions
    }

    /// Reachability changed.
    package mutating func setReachable(_ reachable: Bool, now: WatchTimestamp) -> [LinkAction] {
        guard reachable != isReachable else { return [] }
        isReachable = reachable
        var actions: [LinkAction] = [.event(.reachabilityChanged(reachable))]
        for id in outboxOrder {
            guard let pending = outbox[id] else { continue }
            let waitingForReachability = reachable && pending.entry.strategy == .messageOnly
            let messageLikelyLost = !reachable && pending.lastChannel == .message && pending.entry.strategy != .messageOnly
            if waitingForReachability || messageLikelyLost { outbox[id]?.nextAttemptAt = now }
        }
        actions += tick(now: now)
        return actions
    }

    /// Processes everything due at `now`: retries, deadlines, expiry, context publication.
    package mutating func tick(now: WatchTimestamp) -> [LinkAction] {
        var batch = SettleBatch()
        var sends: [LinkAction] = []
        for id in outboxOrder {
            guard let pending = outbox[id] else { continue }
            let request = pending.entry.request
            if now >= request.deadline {
                settle(
                    id,
                    .failure(WatchLinkError(.timeout, "no response before the deadline", details: ["requestID": id.uuidString])),
                    now: now, into: &batch)
            } else if now >= request.createdAt.advanced(by: configuration.outboxExpiry) {
                settle(
                    id,
                    .failure(
                        WatchLinkError(.expired, "request outlived the outbox expiry", details: ["requestID": id.uuidString])),
                    now: now, into: &batch)
            } else if let due = pending.nextAttemptAt, now >= due {
                if pending.lastChannel != nil { noteFailure(into: &batch) }
                if pending.entry.retry.allowsAttempt(after: pending.attempts) {
                    sends += transmit(id, now: now, batch: &batch)
                } else {
                    let code: WatchLinkError.Code = pending.lastChannel == nil ? .notReachable : .timeout
                    settle(
                        id,
                        .failure(
                            WatchLinkError(
                                code, "retries exhausted after \(pending.attempts) attempts",
                                details: ["requestID": id.uuidString])), now: now, into: &batch)
                }
            }
        }
        return finish(batch.actions + sends + releaseOverdueMessage(now: now), now: now)
    }

    /// The earliest instant at which ``tick(now:)`` has work, if any.
    package var nextWakeup: WatchTimestamp? {
        var earliest: WatchTimestamp?
        func consider(_ t: WatchTimestamp?) {
            guard let t else { return }
            if earliest == nil || t < earliest! { earliest = t }
        }
        // NB: the expiry converted once, not per entry: this runs after every batch of effects.
        let expiry = configuration.outboxExpiry.wholeMilliseconds
        // NB: each entry's times read in place, not the entry copied out (its request holds several
        // references, each retained and released by a copy).
        let values = outbox.values
        for index in values.indices {
            let (deadline, createdAt) = (values[index].entry.request.deadline, values[index].entry.request.createdAt)
            consider(min(deadline, WatchTimestamp(milliseconds: createdAt.milliseconds &+ expiry)))
            if isActivated { consider(values[index].nextAttemptAt) }
        }
        if isActivated {
            consider(contextPublishAt)
            consider(republishAt)
        }
        // NB: just past the deadline of a handler that holds up queued messages (it is overdue
        // only once the deadline has passed).
        if let busy = messageBusy, !messageQueue.isEmpty { consider(busy.deadline.advanced(by: .milliseconds(1))) }
        return earliest
    }

    /// ``nextWakeup`` read in place: a shell that reads the getter from the engine it stores
    /// copied the whole engine first, after every batch (in `perf`, the copy and its destruction
    /// under the connection's `scheduleWake` were about 1% of a throughput run's samples).
    package mutating func nextWakeupInPlace() -> WatchTimestamp? { nextWakeup }

    /// When unconfirmed shared state is next republished, if it is.
    var republishAt: WatchTimestamp? {
        guard contextPublishAt == nil, let last = lastContextPublish, hasUnconfirmedState else { return nil }
        return last.advanced(by: configuration.stateRepublishInterval)
    }

    /// Appends compaction and a due context publication to a batch of actions.
    mutating func finish(_ actions: [LinkAction], now: WatchTimestamp) -> [LinkAction] {
        var actions = actions
        if isActivated {
            let republishDue = republishAt.map { now >= $0 } ?? false
            if let at = contextPublishAt, now >= at {
                actions += publishContext(now: now)
            } else if republishDue {
                actions += publishContext(now: now)
            }
        }
        if inbox.count >= inboxPruneAt {
            // NB: the next prune waits until the inbox has doubled again, so its cost stays amortised
            // constant per request however many entries are still within their retention.
            pruneInbox(now: now)
            inboxPruneAt = max(Self.inboxPruneFloor, inbox.count * 2)
        }
        let persisted = actions.reduce(0) { if case .persist = $1 { $0 + 1 } else { $0 } }
        recordsInLog += persisted
        recordsSinceCheck += persisted
        // NB: compaction is considered once the log has grown by the threshold and by a quarter of
        // the inbox (a check scans all of it and the outbox: the prune, and the count of what is
        // live), so checks cost amortised constant per record however many entries, durable or
        // not, are retained (the outbox is bounded by its limit).
        if recordsSinceCheck >= max(configuration.compactionThreshold, inbox.count / 4) {
            recordsSinceCheck = 0
            compactionChecks += 1
            pruneInbox(now: now)
            // NB: and done only when the log holds at least three times what the snapshot would, so
            // it shrinks to a third or less. A log that grows with what it keeps (a receiver's inbox
            // holds an entry per request until its retention ends: two records in, one kept) is not
            // rewritten again and again for nothing: it is compacted once pruning or settling has
            // made most of it garbage. The log stays within three times a snapshot, plus the spacing.
            if recordsInLog >= 3 * liveRecordCount() { actions.append(.compact) }
        }
        return actions
    }

    /// The number of records ``snapshot(now:)`` would write now; counted without building them.
    func liveRecordCount() -> Int {
        var count = 3 + states.count + (inboxHorizon == nil ? 0 : 1)
        for pending in outbox.values where pending.entry.request.isDurable { count += 1 }
        for state in inbox.values {
            switch state {
            case .started(_, _, true), .finished(_, _, true): count += 1
            default: continue
            }
        }
        return count
    }

    /// The durable log reduced to the records needed to rebuild the current state: what a
    /// ``LinkAction/compact`` writes, taken when it is performed. The log holds these records
    /// alone afterwards.
    package mutating func snapshot(now: WatchTimestamp) -> [DurableRecord] {
        var records: [DurableRecord] = [
            .boot(incarnation.boot), .orderedNextSequence(max(nextSequence, reservedSequences)), .orderedWatermark(watermark),
        ]
        for id in outboxOrder {
            guard let pending = outbox[id], pending.entry.request.isDurable else { continue }
            records.append(.outboxAdded(pending.entry))
        }
        // NB: only the durable entries are sorted (by key, so a snapshot is the same whatever the
        // table's order): a non-durable one leaves no record, and may outnumber them many times.
        // NB: the sort moves keys and indices, not the records (large values, each moved many times).
        var durable: [DurableRecord] = []
        var order: [(key: String, index: Int)] = []
        for (key, state) in inbox {
            switch state {
            case .started(let start, _, true): durable.append(.inboxStarted(start))
            case .finished(let response, let deadline, true): durable.append(.inboxFinished(response, deadline: deadline))
            default: continue
            }
            order.append((key.key, durable.count - 1))
        }
        order.sort { $0.key < $1.key }
        records.reserveCapacity(records.count + durable.count + states.count + 1)
        for entry in order { records.append(durable[entry.index]) }
        for key in states.keys.sorted() { records.append(.state(key: key, states[key]!)) }
        if let inboxHorizon { records.append(.inboxHorizon(inboxHorizon)) }
        // NB: the log is replaced by these records.
        recordsInLog = records.count
        return records
    }

    mutating func pruneInbox(now: WatchTimestamp) {
        // NB: in no particular order (the horizon is a maximum), so no sort of every key.
        let retention = configuration.inboxRetention.wholeMilliseconds
        var forgottenKeys: [InboxKey] = []
        for (key, state) in inbox {
            let forgotten: WatchTimestamp
            switch state {
            case .finished(_, let deadline, _) where now.milliseconds > deadline.milliseconds &+ retention:
                forgotten = deadline
            case .started(let start, false, _) where now.milliseconds > start.deadline.milliseconds &+ retention:
                forgotten = start.deadline
            default: continue
            }
            forgottenKeys.append(key)
            inboxHorizon = max(inboxHorizon ?? forgotten, forgotten)
        }
        for key in forgottenKeys { inbox[key] = nil }
    }

    mutating func noteFailure(into batch: inout SettleBatch) {
        if let changed = health.recordFailure() { batch.notify(.event(.healthChanged(changed))) }
    }

    mutating func noteSuccess(into batch: inout SettleBatch) {
        if let changed = health.recordSuccess() { batch.notify(.event(.healthChanged(changed))) }
    }
}

/// Actions gathered while settling requests: all records, one sync, then the notifications.
///
/// NB: one array, in that order as it is built (a record goes in ahead of the sync, a
/// notification at the end), sized once for a request's usual actions: separate arrays for the
/// records and the notifications cost an allocation each, and a third to join them.
struct SettleBatch {
    /// The records, then (with at least one record) the sync, then the notifications.
    private(set) var actions: [LinkAction]
    /// How many records lead ``actions``.
    private var records = 0

    /// An empty batch.
    init() {
        // NB: room for a request's record, the sync, its notifications (accepted or completed,
        // and its event), a send and one more, so the array is allocated once, not grown.
        actions = []
        actions.reserveCapacity(6)
    }

    /// Adds a record ahead of the sync (made by the first record).
    mutating func persist(_ record: DurableRecord) {
        actions.insert(.persist(record), at: records)
        records += 1
        if records == 1 { actions.insert(.sync, at: 1) }
    }

    /// Adds a notification after the sync.
    mutating func notify(_ action: LinkAction) {
        actions.append(action)
    }

    /// ``actions``, then `extra`, taken out of the batch, which is left empty; `extra` is appended
    /// in place.
    mutating func take(then extra: [LinkAction]) -> [LinkAction] {
        var taken: [LinkAction] = []
        swap(&taken, &actions)
        records = 0
        taken += extra
        return taken
    }
}
