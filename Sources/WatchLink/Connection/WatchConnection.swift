public import Foundation
public import PWAKitRetry
import Synchronization

/// Typed, reliable request/response and shared state between phone and watch.
///
/// A thin shell around ``LinkEngine``: it feeds the engine session callbacks, timer ticks and
/// calls, and performs the engine's effects (durable writes, session transfers, handler runs).
/// Time and randomness are injected, so tests drive it with a `ManualClock` (PWAKitTesting).
///
/// The connection has no thread of its own. Its state is touched by one job at a time on an
/// ``InlineSerialQueue``: the thread that brings work while none runs — a caller of ``send(_:strategy:retry:timeout:durable:idempotencyKey:)``,
/// the session's reading thread, the sync loop, a timer — does it at once, and work that arrives
/// meanwhile is done by that thread right after. So a request is encoded and written on its caller's
/// thread, and a response is read, settled and its caller resumed on the reading thread, with no
/// hand-over between them.
public final class WatchConnection: @unchecked Sendable {
    // NB: @unchecked: every `var` below is touched only by jobs of `queue`, one at a time; what
    // other threads read (`flags`, `syncProgress`) is behind locks.
    enum Lifecycle { case idle, running, stopped }

    /// Observable activation, reachability, pending count and health.
    public let status = WatchLinkStatus()
    /// The handlers this device serves.
    public let handlers = HandlerRegistry()
    /// Where files from the counterpart are copied; `nil` refuses them.
    public let fileInbox: FileInbox?

    let session: any WatchSession & Sendable
    let store: any DurableStore
    let currentTime: @Sendable () -> WatchTimestamp
    let sleeper: @Sendable (WatchTimestamp) async throws -> Void
    /// Runs the connection's jobs one at a time, on the threads that submit them.
    let queue: InlineSerialQueue
    /// An executor that runs tasks as the connection's jobs, for the fastest round trips.
    ///
    /// A task that prefers it (`withTaskExecutorPreference(connection.taskExecutor) { … }`, or
    /// `Task(executorPreference:)`) is resumed on the thread that read its response and sends its
    /// next request from there: one thread wake-up per side and round trip, where a task on the
    /// global executor takes three in all. Code in such a task runs while the connection runs
    /// nothing else (not reading, not answering), maybe inside one of the session's callbacks, so
    /// it must be short, must never block, and must not call the session itself (the connection's
    /// own calls, file calls included, are safe).
    public let taskExecutor: WatchConnectionExecutor
    /// The lifecycle and the storage failure, readable without a job (the file calls check them).
    let flags = Mutex<(lifecycle: Lifecycle, storageError: WatchLinkError?)>((.idle, nil))
    var engine: LinkEngine
    var lifecycle = Lifecycle.idle {
        didSet { flags.withLock { $0.lifecycle = lifecycle } }
    }
    var waiters: [UUID: CheckedContinuation<Result<Data, WatchLinkError>, Never>] = [:]
    var acceptWaiters: [UUID: CheckedContinuation<Result<Data, WatchLinkError>, Never>] = [:]
    var sharedStates: [String: any SharedStateSink] = [:]
    var eventContinuations: [UUID: AsyncStream<LinkEvent>.Continuation] = [:] {
        didSet { engine.reportsRequestEvents = !eventContinuations.isEmpty }
    }
    var fileContinuations: [UUID: AsyncStream<ReceivedFile>.Continuation] = [:]
    var wakeTask: Task<Void, Never>?
    var wakeAt: WatchTimestamp?
    var bridge: SessionBridge?
    /// The array the pump drains the bridge into, kept empty with its capacity between pumps.
    var drainedInputs: [SessionInput] = []
    /// The array the pump gathers the engine's answers in, kept empty with its capacity between pumps.
    var pumpedLists: [[LinkAction]] = []
    var queuedSubmissions: [(WireRequest, DeliveryStrategy, RetryPolicy)] = []
    var finishedCalls: [(InboundCall, Result<Data, WatchLinkError>)] = []
    var pumpScheduled = false
    /// A compaction waits for the sync queue's thread (``compactNow()``).
    var compactionScheduled = false
    /// Groups whose records are appended and whose effects wait for a sync that covers them, in
    /// order of their log sequence numbers.
    var pendingGroups: [(lsn: UInt64, effects: [LinkAction])] = []
    /// The log sequence number the next appended group gets.
    var nextLSN: UInt64 = 1
    /// Calls waiting for the effects of a log sequence number (``afterSync(_:_:)``), in order.
    var syncWaiters: [(lsn: UInt64, body: (WatchLinkError?) -> Void)] = []
    /// What the sync loop on ``syncQueue`` is asked for and has done.
    let syncProgress = Mutex(SyncProgress())
    /// Runs durable syncs off the connection's jobs, one at a time.
    let syncQueue = DispatchQueue(label: "watchlink.sync")
    /// Ends the sync loop's wait for a group to gather (``CommitDelay``) once enough was appended.
    let gatherSignal = DispatchSemaphore(value: 0)
    /// Hands user info and contexts to the session, in order, off the connection's jobs.
    let transferQueue = DispatchQueue(label: "watchlink.transfers")
    var storageError: WatchLinkError? {
        didSet { flags.withLock { $0.storageError = storageError } }
    }

    /// Creates a connection for `origin` over `session`, keeping its log in a file.
    ///
    /// - Parameters:
    ///   - clock: drives retries and deadlines; pass a `ManualClock` (PWAKitTesting) in tests.
    ///   - wallClockAtStart: the wall-clock time corresponding to `clock.now` at creation.
    ///   - random: the source of retry jitter and ids.
    ///   - fileInbox: where received files are copied (see ``receivedFiles()``); without one they are refused.
    public convenience init<C: Clock>(
        origin: DeviceOrigin, session: any WatchSession & Sendable, store: FileStore, clock: C,
        wallClockAtStart: WatchTimestamp = .now, random: SeededRandom = .systemSeeded(),
        configuration: WatchLinkConfiguration = WatchLinkConfiguration(), fileInbox: FileInbox? = nil
    ) where C.Duration == Duration {
        self.init(
            origin: origin, session: session, durableStore: store, clock: clock, wallClockAtStart: wallClockAtStart,
            random: random, configuration: configuration, fileInbox: fileInbox)
    }

    /// Creates a connection for `origin` over `session`, keeping its log in memory (lost when the
    /// process ends). The parameters are those of the file-backed initializer.
    public convenience init<C: Clock>(
        origin: DeviceOrigin, session: any WatchSession & Sendable, store: InMemoryStore, clock: C,
        wallClockAtStart: WatchTimestamp = .now, random: SeededRandom = .systemSeeded(),
        configuration: WatchLinkConfiguration = WatchLinkConfiguration(), fileInbox: FileInbox? = nil
    ) where C.Duration == Duration {
        self.init(
            origin: origin, session: session, durableStore: store, clock: clock, wallClockAtStart: wallClockAtStart,
            random: random, configuration: configuration, fileInbox: fileInbox)
    }

    /// Creates a connection over any durable store (the package's tests use failing stores).
    package init<C: Clock>(
        origin: DeviceOrigin, session: any WatchSession & Sendable, durableStore store: any DurableStore, clock: C,
        wallClockAtStart: WatchTimestamp = .now, random: SeededRandom = .systemSeeded(),
        configuration: WatchLinkConfiguration = WatchLinkConfiguration(), fileInbox: FileInbox? = nil
    ) where C.Duration == Duration {
        let start = clock.now
        let queue = InlineSerialQueue()
        self.queue = queue
        self.taskExecutor = WatchConnectionExecutor(queue: queue)
        self.fileInbox = fileInbox
        self.session = session
        self.store = store
        self.currentTime = { wallClockAtStart.advanced(by: start.duration(to: clock.now)) }
        self.sleeper = { target in
            try await clock.sleep(until: start.advanced(by: wallClockAtStart.duration(to: target)), tolerance: nil)
        }
        self.engine = LinkEngine(origin: origin, configuration: configuration, random: random)
        // NB: no one listens to the events yet (see `eventContinuations`).
        self.engine.reportsRequestEvents = false
    }

    /// Recovers the durable log and activates the session.
    public func start() async throws(WatchLinkError) {
        try await queue.perform { self.startNow() }.get()
    }

    private func startNow() -> Result<Void, WatchLinkError> {
        guard lifecycle == .idle else { return storageError.map { .failure($0) } ?? .success(()) }
        let records: [DurableRecord]
        do throws(WatchLinkError) { records = try store.load() } catch { return .failure(error) }
        lifecycle = .running
        let bridge = SessionBridge(inbox: fileInbox, callsBackInline: session.allowsCallsFromCallbacks) { [weak self] in
            guard let self else { return }
            self.queue.run { self.pump() }
        }
        self.bridge = bridge
        let actions = engine.recover(from: records, receivedContext: session.receivedApplicationContext, now: currentTime())
        perform(actions)
        if let storageError { return .failure(storageError) }
        session.activate(delegate: bridge)
        return .success(())
    }

    /// Stops timers and input processing; pending callers receive `cancelled`.
    public func stop() async {
        await queue.perform { self.stopNow() }
    }

    private func stopNow() {
        end(with: WatchLinkError(.cancelled, "connection stopped"))
    }

    /// Registers the handler for requests of type `R`; a second registration for the same key throws.
    ///
    /// The handler is started as soon as its request arrives, on the thread that received it, and
    /// runs there until its first suspension.
    public func register<R: WatchRequest>(_ type: R.Type, handler: @escaping @Sendable (R) async throws -> R.Response)
        throws(WatchLinkError)
    {
        try handlers.register(type, handler: handler)
    }

    /// Registers a synchronous handler for requests of type `R`, run inline: on the thread that
    /// received the request, with its answer written before that thread reads on. The fastest
    /// path for a quick handler; one that blocks holds up the connection meanwhile.
    public func register<R: WatchRequest>(_ type: R.Type, inline handler: @escaping @Sendable (R) throws -> R.Response)
        throws(WatchLinkError)
    {
        try handlers.register(type, inline: handler)
    }

    /// Sends a request and waits for its response.
    ///
    /// Cancelling the calling task cancels the request: the call throws `cancelled` at once, without
    /// waiting for the disk or the counterpart, and the request leaves the outbox (settled
    /// `cancelled`, durably for a durable request). A request not yet handed to the session never
    /// leaves the device; one already sent may still run at the receiver, and its late answer is
    /// dropped and reported in ``events()`` as `lateResponseDropped`.
    /// - Throws: the handler's error, or `timeout`, `outcome_unknown`, `not_reachable`,
    ///   `payload_too_large`, `outbox_overflow`, `expired`, `cancelled`.
    public func send<R: WatchRequest>(
        _ request: R, strategy: DeliveryStrategy = .messageWithUserInfoFallback, retry: RetryPolicy = .standard,
        timeout: Duration = .seconds(30), durable: Bool = true, idempotencyKey: String? = nil
    ) async throws(WatchLinkError) -> R.Response {
        let draft = try Draft(
            request, timeout: timeout, durable: durable, fireAndForget: false, idempotencyKey: idempotencyKey)
        let (_, response) = try await submit(draft, strategy: strategy, retry: retry, untilAccepted: false)
        return try WireCodec.decodeValue(R.Response.self, from: response, field: "response")
    }

    /// Hands `draft` to the outbox and waits for its response, or only until it is accepted;
    /// cancelling the calling task cancels the request (``cancelRequest(_:)``). Returns the request's id.
    ///
    /// - Throws: `cancelled` when the calling task was cancelled before the request was submitted.
    private func submit(
        _ draft: Draft, strategy: DeliveryStrategy, retry: RetryPolicy, untilAccepted: Bool
    ) async throws(WatchLinkError) -> (id: UUID, data: Data) {
        if Task.isCancelled { throw Self.cancelledByCaller(nil) }
        let ticket = Mutex(CallTicket())
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, WatchLinkError>, Never>) in
                queue.run {
                    let wire: WireRequest
                    do throws(WatchLinkError) { wire = try self.makeWire(draft) } catch {
                        continuation.resume(returning: .failure(error))
                        return
                    }
                    let id = wire.requestID
                    let cancelled = ticket.withLock { ticket -> Bool in
                        ticket.id = id
                        return ticket.cancelled
                    }
                    guard !cancelled else {
                        continuation.resume(returning: .failure(Self.cancelledByCaller(id)))
                        return
                    }
                    if untilAccepted { self.acceptWaiters[id] = continuation } else { self.waiters[id] = continuation }
                    self.enqueue(wire, strategy: strategy, retry: retry)
                }
            }
        } onCancel: {
            // NB: the ticket decides who handles a cancel that races the submission: the job that
            // submits sees `cancelled` and refuses, or the cancel sees the id and withdraws it.
            let id = ticket.withLock { ticket -> UUID? in
                ticket.cancelled = true
                return ticket.id
            }
            // NB: never on the cancelling thread, which may be anybody's.
            if let id { queue.runElsewhere { self.cancelRequest(id) } }
        }
        let data = try result.get()
        // NB: a job resumes with success only after it gave the ticket its id.
        guard let id = ticket.withLock({ $0.id }) else { preconditionFailure("a settled request has no id") }
        return (id, data)
    }

    /// The calling task of `send` was cancelled: resume it now, then take the request out of the
    /// submission queue or the outbox.
    ///
    /// For a `post`, only while it waits to be accepted: once accepted, the post has returned.
    func cancelRequest(_ id: UUID) {
        guard let waiter = waiters.removeValue(forKey: id) ?? acceptWaiters.removeValue(forKey: id) else { return }
        waiter.resume(returning: .failure(Self.cancelledByCaller(id)))
        if let index = queuedSubmissions.firstIndex(where: { $0.0.requestID == id }) {
            queuedSubmissions.remove(at: index)
            return
        }
        guard lifecycle == .running else { return }
        commit([engine.cancel(id, now: currentTime())])
    }

    static func cancelledByCaller(_ id: UUID?) -> WatchLinkError {
        WatchLinkError(.cancelled, "the calling task was cancelled", details: id.map { ["requestID": $0.uuidString] } ?? [:])
    }

    /// Hands a fire-and-forget request to the outbox; returns once it is accepted (durably, if durable).
    ///
    /// The request is retried until acknowledged or its deadline; its settlement appears in ``events()``.
    /// Cancelling the calling task before the request is accepted withdraws it as ``send(_:strategy:retry:timeout:durable:idempotencyKey:)``
    /// does: the call throws `cancelled` at once and the request leaves the outbox (one already
    /// handed to the session may still run at the receiver). Once accepted, the post has returned.
    /// - Throws: `cancelled`, `payload_too_large`, `outbox_overflow`, `storage_failed`.
    @discardableResult
    public func post<R: WatchFireAndForget>(
        _ request: R, strategy: DeliveryStrategy = .messageWithUserInfoFallback, retry: RetryPolicy = .standard,
        timeout: Duration = .seconds(3600), durable: Bool = true, idempotencyKey: String? = nil
    ) async throws(WatchLinkError) -> UUID {
        let draft = try Draft(request, timeout: timeout, durable: durable, fireAndForget: true, idempotencyKey: idempotencyKey)
        return try await submit(draft, strategy: strategy, retry: retry, untilAccepted: true).id
    }

    /// Hands several fire-and-forget requests to the outbox at once, with a single durable sync.
    ///
    /// Returns, per request and in order, its id once accepted or the error that refused it.
    /// - Throws: when the connection is not running, a request cannot be encoded, or the batch
    ///   could not be written durably (`storage_failed`).
    public func post<R: WatchFireAndForget>(
        contentsOf requests: [R], strategy: DeliveryStrategy = .messageWithUserInfoFallback, retry: RetryPolicy = .standard,
        timeout: Duration = .seconds(3600), durable: Bool = true
    ) async throws(WatchLinkError) -> [Result<UUID, WatchLinkError>] {
        var drafts: [Draft] = []
        for request in requests {
            drafts.append(try Draft(request, timeout: timeout, durable: durable, fireAndForget: true, idempotencyKey: nil))
        }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[Result<UUID, WatchLinkError>], WatchLinkError>, Never>) in
            queue.run { [drafts] in
                self.postNow(drafts, strategy: strategy, retry: retry) { continuation.resume(returning: $0) }
            }
        }
        return try result.get()
    }

    /// Submits the batch as one group commit and calls `done` once it is durable (or failed).
    private func postNow(
        _ drafts: [Draft], strategy: DeliveryStrategy, retry: RetryPolicy,
        done: @escaping (Result<[Result<UUID, WatchLinkError>], WatchLinkError>) -> Void
    ) {
        var wires: [WireRequest] = []
        for draft in drafts {
            do throws(WatchLinkError) { wires.append(try makeWire(draft)) } catch { return done(.failure(error)) }
        }
        let now = currentTime()
        let lists = wires.map { engine.submit($0, strategy: strategy, retry: retry, now: now) }
        // NB: a later item can push an earlier one out of a full outbox, so look at every list.
        var refused: [UUID: WatchLinkError] = [:]
        for case .complete(let id, .failure(let error)) in lists.joined() where refused[id] == nil { refused[id] = error }
        afterSync(commit(lists)) { error in
            if let error { return done(.failure(error)) }
            done(.success(wires.map { wire in refused[wire.requestID].map { .failure($0) } ?? .success(wire.requestID) }))
        }
    }

    /// A stream of diagnostic events from now on; it ends when the connection stops (at once, if it
    /// has stopped already).
    ///
    /// While no stream is open, the connection does not make each request's `requestAccepted` and
    /// `requestSettled` events (two allocations a request, for no one). They are made when the
    /// request is accepted or its answer handled, so a stream opened while that request's other
    /// effects wait for a durable sync does not get them.
    public func events() async -> AsyncStream<LinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        await queue.perform {
            // NB: a stopped connection makes no more events: the stream ends at once.
            guard self.lifecycle != .stopped else { return continuation.finish() }
            self.eventContinuations[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.queue.runElsewhere { self.eventContinuations[id] = nil }
        }
        return stream
    }

    /// A request encoded on its caller's thread, before a job gives it an id.
    struct Draft: Sendable {
        let typeKey: WatchTypeKey
        let payload: Data
        let timeout: Duration
        let durable: Bool
        let fireAndForget: Bool
        let idempotencyKey: String?

        init<R: WatchRequest>(
            _ request: R, timeout: Duration, durable: Bool, fireAndForget: Bool, idempotencyKey: String?
        ) throws(WatchLinkError) {
            guard timeout > .zero else {
                throw WatchLinkError(.invalidArgument, "timeout must be positive", details: ["field": "timeout"])
            }
            self.typeKey = R.typeKey
            self.payload = try WatchPayload.encode(request)
            self.timeout = timeout
            self.durable = durable
            self.fireAndForget = fireAndForget
            self.idempotencyKey = idempotencyKey
        }
    }

    /// Who handles a cancel that races its request's submission.
    struct CallTicket {
        var id: UUID?
        var cancelled = false
    }

    /// The wire request for `draft`, with an id and timestamps; refused once the connection stopped.
    private func makeWire(_ draft: Draft) throws(WatchLinkError) -> WireRequest {
        if let storageError { throw storageError }
        guard lifecycle == .running else { throw WatchLinkError(.cancelled, "connection is not running; call start()") }
        let now = currentTime()
        return WireRequest(
            typeKey: draft.typeKey, payload: draft.payload, requestID: engine.random.uuid(),
            idempotencyKey: draft.idempotencyKey, isFireAndForget: draft.fireAndForget, isDurable: draft.durable,
            createdAt: now, deadline: now.advanced(by: draft.timeout))
    }
}
