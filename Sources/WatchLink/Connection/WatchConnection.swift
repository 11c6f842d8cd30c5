public import Foundation
public import PWAKitRetry
import Synchronization

/// Typed, reliable request/response and shared state between phone and watch.
///
/// A thin shell around ``LinkEngine``: it feeds the engine session callbacks, timer ticks and
/// calls, and performs the engine's effects (durable writes, session transfers, handler runs).
/// Time and randomness are injected, so tests drive it with a `ManualClock` (PWAKitTesting).
public actor WatchConnection {
    enum Lifecycle { case idle, running, stopped }

    /// Observable activation, reachability, pending count and health.
    public nonisolated let status = WatchLinkStatus()
    /// The handlers this device serves.
    public nonisolated let handlers = HandlerRegistry()
    /// Where files from the counterpart are copied; `nil` refuses them.
    public nonisolated let fileInbox: FileInbox?

    let session: any WatchSession & Sendable
    let store: any DurableStore
    let currentTime: @Sendable () -> WatchTimestamp
    let sleeper: @Sendable (WatchTimestamp) async throws -> Void
    var engine: LinkEngine
    var lifecycle = Lifecycle.idle
    var waiters: [UUID: CheckedContinuation<Result<Data, WatchLinkError>, Never>] = [:]
    var acceptWaiters: [UUID: CheckedContinuation<Result<Data, WatchLinkError>, Never>] = [:]
    var sharedStates: [String: any SharedStateSink] = [:]
    var eventContinuations: [UUID: AsyncStream<LinkEvent>.Continuation] = [:]
    var fileContinuations: [UUID: AsyncStream<ReceivedFile>.Continuation] = [:]
    var wakeTask: Task<Void, Never>?
    var wakeAt: WatchTimestamp?
    var inputTask: Task<Void, Never>?
    var bridge: SessionBridge?
    var queuedSubmissions: [(WireRequest, DeliveryStrategy, RetryPolicy)] = []
    var finishedCalls: [(InboundCall, Result<Data, WatchLinkError>)] = []
    var pumpScheduled = false
    /// Groups whose records are appended and whose effects wait for a sync that covers them, in
    /// order of their log sequence numbers.
    var pendingGroups: [(lsn: UInt64, effects: [LinkAction])] = []
    /// The log sequence number the next appended group gets.
    var nextLSN: UInt64 = 1
    /// What the sync loop on ``syncQueue`` is asked for and has done.
    nonisolated let syncProgress = Mutex(SyncProgress())
    /// Runs durable syncs off the actor, one at a time.
    nonisolated let syncQueue = DispatchQueue(label: "watchlink.sync")
    var storageError: WatchLinkError?

    /// Creates a connection for `origin` over `session`, keeping its log in a file.
    ///
    /// - Parameters:
    ///   - clock: drives retries and deadlines; pass a `ManualClock` (PWAKitTesting) in tests.
    ///   - wallClockAtStart: the wall-clock time corresponding to `clock.now` at creation.
    ///   - random: the source of retry jitter and ids.
    ///   - fileInbox: where received files are copied (see ``receivedFiles()``); without one they are refused.
    public init<C: Clock>(
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
    public init<C: Clock>(
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
        self.fileInbox = fileInbox
        self.session = session
        self.store = store
        self.currentTime = { wallClockAtStart.advanced(by: start.duration(to: clock.now)) }
        self.sleeper = { target in
            try await clock.sleep(until: start.advanced(by: wallClockAtStart.duration(to: target)), tolerance: nil)
        }
        self.engine = LinkEngine(origin: origin, configuration: configuration, random: random)
    }

    /// Recovers the durable log and activates the session.
    public func start() throws(WatchLinkError) {
        guard lifecycle == .idle else { return }
        let records = try store.load()
        lifecycle = .running
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let bridge = SessionBridge(signal: continuation, inbox: fileInbox)
        self.bridge = bridge
        inputTask = Task { [weak self] in
            for await _ in signals {
                await self?.pump()
            }
        }
        let actions = engine.recover(from: records, receivedContext: session.receivedApplicationContext, now: currentTime())
        perform(actions)
        if let storageError { throw storageError }
        session.activate(delegate: bridge)
    }

    /// Stops timers and input processing; pending callers receive `cancelled`.
    public func stop() {
        lifecycle = .stopped
        wakeTask?.cancel()
        inputTask?.cancel()
        let cancelled = WatchLinkError(.cancelled, "connection stopped")
        for waiter in waiters.values { waiter.resume(returning: .failure(cancelled)) }
        for waiter in acceptWaiters.values { waiter.resume(returning: .failure(cancelled)) }
        waiters.removeAll()
        acceptWaiters.removeAll()
        for continuation in eventContinuations.values { continuation.finish() }
        eventContinuations.removeAll()
        for continuation in fileContinuations.values { continuation.finish() }
        fileContinuations.removeAll()
    }

    /// Registers the handler for requests of type `R`; a second registration for the same key throws.
    public nonisolated func register<R: WatchRequest>(_ type: R.Type, handler: @escaping @Sendable (R) async throws -> R.Response)
        throws(WatchLinkError)
    {
        try handlers.register(type, handler: handler)
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
        let wire = try makeWire(request, timeout: timeout, durable: durable, fireAndForget: false, idempotencyKey: idempotencyKey)
        let result = try await submit(wire, strategy: strategy, retry: retry, untilAccepted: false)
        return try WireCodec.decodeValue(R.Response.self, from: result.get(), field: "response")
    }

    /// Hands `wire` to the outbox and waits for its response, or only until it is accepted;
    /// cancelling the calling task cancels the request (``cancelRequest(_:)``).
    ///
    /// - Throws: `cancelled` when the calling task was cancelled before the request was submitted.
    private func submit(
        _ wire: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy,
        untilAccepted: Bool
    ) async throws(WatchLinkError) -> Result<Data, WatchLinkError> {
        let id = wire.requestID
        if Task.isCancelled { throw Self.cancelledByCaller(id) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if untilAccepted { acceptWaiters[id] = continuation } else { waiters[id] = continuation }
                enqueue(wire, strategy: strategy, retry: retry)
            }
        } onCancel: {
            Task { await self.cancelRequest(id) }
        }
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

    static func cancelledByCaller(_ id: UUID) -> WatchLinkError {
        WatchLinkError(.cancelled, "the calling task was cancelled", details: ["requestID": id.uuidString])
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
        let wire = try makeWire(request, timeout: timeout, durable: durable, fireAndForget: true, idempotencyKey: idempotencyKey)
        _ = try await submit(wire, strategy: strategy, retry: retry, untilAccepted: true).get()
        return wire.requestID
    }

    /// Hands several fire-and-forget requests to the outbox at once, with a single durable sync.
    ///
    /// Returns, per request and in order, its id once accepted or the error that refused it.
    /// - Throws: when the connection is not running, a request cannot be encoded, or the batch
    ///   could not be written durably (`storage_failed`).
    public func post<R: WatchFireAndForget>(
        contentsOf requests: [R], strategy: DeliveryStrategy = .messageWithUserInfoFallback, retry: RetryPolicy = .standard,
        timeout: Duration = .seconds(3600), durable: Bool = true
    ) throws(WatchLinkError) -> [Result<UUID, WatchLinkError>] {
        var wires: [WireRequest] = []
        for request in requests {
            wires.append(try makeWire(request, timeout: timeout, durable: durable, fireAndForget: true, idempotencyKey: nil))
        }
        let now = currentTime()
        let lists = wires.map { engine.submit($0, strategy: strategy, retry: retry, now: now) }
        // NB: a later item can push an earlier one out of a full outbox, so look at every list.
        var refused: [UUID: WatchLinkError] = [:]
        for case .complete(let id, .failure(let error)) in lists.joined() where refused[id] == nil { refused[id] = error }
        finishCommits()
        performGrouped(lists)
        if let storageError { throw storageError }
        return wires.map { wire in refused[wire.requestID].map { .failure($0) } ?? .success(wire.requestID) }
    }

    /// A stream of diagnostic events from now on.
    public func events() -> AsyncStream<LinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        eventContinuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeEventContinuation(id) }
        }
        return stream
    }

    /// The shared state `key`, created with `initial` until a stored or remote value exists.
    ///
    /// - Throws: `invalid_argument` if `key` is empty or already used with another value type.
    public func sharedState<Value: Codable & Sendable>(
        _ key: String, initial: Value, strategy: ConflictStrategy<Value> = .latestWins
    ) throws(WatchLinkError) -> SharedState<Value> {
        guard !key.isEmpty, key.utf8.count <= 128 else {
            throw WatchLinkError(.invalidArgument, "state key must be 1-128 bytes", details: ["field": "key"])
        }
        if let existing = sharedStates[key] {
            guard let typed = existing as? SharedState<Value> else {
                throw WatchLinkError(
                    .invalidArgument, "state key '\(key)' is already used with another type", details: ["field": "key"])
            }
            return typed
        }
        let state = SharedState(key: key, initial: initial, connection: self)
        sharedStates[key] = state
        engine.registerState(key, resolution: strategy.resolution)
        if let entry = engine.stateEntry(key) { state.apply(entry) }
        state.setUnconfirmed(engine.isUnconfirmed(key))
        return state
    }

    func updateState(_ key: String, data: Data) throws(WatchLinkError) {
        if let storageError { throw storageError }
        try engine.checkStateFits(key, value: data)
        finishCommits()
        perform(engine.updateState(key, value: data, now: currentTime()))
        if let storageError { throw storageError }
    }

    func removeEventContinuation(_ id: UUID) { eventContinuations[id] = nil }

    private func makeWire<R: WatchRequest>(
        _ request: R, timeout: Duration, durable: Bool, fireAndForget: Bool, idempotencyKey: String?
    ) throws(WatchLinkError) -> WireRequest {
        if let storageError { throw storageError }
        guard lifecycle == .running else { throw WatchLinkError(.cancelled, "connection is not running; call start()") }
        guard timeout > .zero else {
            throw WatchLinkError(.invalidArgument, "timeout must be positive", details: ["field": "timeout"])
        }
        let payload = try WireCodec.encodeValue(request)
        let now = currentTime()
        return WireRequest(
            typeKey: R.typeKey, payload: payload, requestID: engine.random.uuid(), idempotencyKey: idempotencyKey,
            isFireAndForget: fireAndForget, isDurable: durable, createdAt: now, deadline: now.advanced(by: timeout))
    }
}

/// A shared state the connection can push entries into, whatever its value type.
protocol SharedStateSink: Sendable {
    func apply(_ entry: StateEntry)
    func setUnconfirmed(_ unconfirmed: Bool)
}

extension SharedState: SharedStateSink {}
