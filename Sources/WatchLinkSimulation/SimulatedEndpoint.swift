package import Foundation
package import PWAKitRetry
package import WatchLink

/// One simulated device: a ``LinkEngine`` over a ``SimulatedSession`` and a ``SimulatedDisk``,
/// with synchronous handlers. It performs the engine's effects one at a time, and the
/// simulation may crash it between any two of them.
package final class SimulatedEndpoint: SimulationDelegate {
    /// Which device this is.
    package let origin: DeviceOrigin
    unowned let world: PairedSimulation
    /// The engine of the running process; `nil` while crashed.
    package internal(set) var engine: LinkEngine?
    var session: SimulatedSession?
    /// The device's durable log.
    package internal(set) var disk = SimulatedDisk()
    /// Whether the process is running.
    package internal(set) var isUp = true
    var incarnation = 0
    var lastReachable = false
    var scheduledWake: Int64?
    /// The time of the last restart.
    package internal(set) var lastRestart: Int64 = 0
    let handler: (InboundCall) -> Result<Data, WatchLinkError>
    let resolutions: [String: StateResolution]
    let configuration: LinkEngine.Configuration

    init(
        origin: DeviceOrigin, world: PairedSimulation, configuration: LinkEngine.Configuration,
        resolutions: [String: StateResolution], handler: @escaping (InboundCall) -> Result<Data, WatchLinkError>
    ) {
        self.origin = origin
        self.world = world
        self.configuration = configuration
        self.resolutions = resolutions
        self.handler = handler
    }

    var now: WatchTimestamp { WatchTimestamp(milliseconds: world.now) }

    /// Starts a new process: recovers from disk and begins activation.
    func boot() {
        incarnation += 1
        isUp = true
        lastRestart = world.now
        scheduledWake = nil
        var engine = LinkEngine(origin: origin, configuration: configuration, random: SeededRandom(seed: world.random.next()))
        for key in resolutions.keys.sorted() { engine.registerState(key, resolution: resolutions[key]!) }
        let session = SimulatedSession(world: world, side: origin, incarnation: incarnation)
        self.session = session
        let actions = engine.recover(from: disk.synced, receivedContext: session.receivedApplicationContext, now: now)
        self.engine = engine
        perform(actions)
        session.attach(self)
    }

    /// Kills the process: the engine and every unsynced write are lost.
    func crash() {
        isUp = false
        engine = nil
        session = nil
        lastReachable = false
        scheduledWake = nil
        disk.crash()
    }

    /// Submits a request from this device (no-op while crashed).
    package func submit(_ request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy) {
        apply { $0.submit(request, strategy: strategy, retry: retry, now: now) }
    }

    /// Cancels a request as its caller's task would (``LinkEngine/cancel(_:now:)``).
    package func cancel(_ id: UUID) {
        apply { $0.cancel(id, now: now) }
    }

    /// Updates a shared-state value on this device (no-op while crashed).
    package func updateState(_ key: String, value: Data) {
        apply { $0.updateState(key, value: value, now: now) }
    }

    func apply(_ input: (inout LinkEngine) -> [LinkAction]) {
        let actions: [LinkAction]
        do {
            // NB: the engine is moved out and back, never copied: a copy still alive while the
            // effects run (and a handler's result is applied) would make every change to its
            // tables copy them whole, quadratic in the length of a run.
            guard isUp, var engine = engine.take() else { return }
            actions = input(&engine)
            self.engine = consume engine
        }
        perform(actions)
    }

    /// Performs effects in order, stopping if the process crashes part-way.
    ///
    /// The handlers started by one batch report back together, once the batch is done, as a
    /// connection's group commit gathers them: their answers to fire-and-forget requests then
    /// share acknowledgement frames.
    func perform(_ actions: [LinkAction]) {
        let life = incarnation
        var finished: [(InboundCall, Result<Data, WatchLinkError>)] = []
        for action in LinkAction.gatheringAcknowledgements(actions) {
            guard isUp, incarnation == life else { return }
            // NB: this includes a crash after a start mark is synced and before its handler is called,
            // which leaves the same disk as a crash inside the handler.
            if case .run = action, world.maybeCrashBeforeHandler(self) { return }
            if world.maybeCrashBetweenEffects(self) { return }
            switch action {
            case .persist(let record): disk.append(record)
            case .sync: disk.sync()
            case .compact:
                // NB: taken now, not when the engine asked: an input applied earlier in this batch
                // (a failed hand-off's settlement) may have appended records since, and the
                // snapshot must hold them.
                if let records = engine?.snapshot(now: now) { disk.replace(with: records) }
            case .send(let channel, let data, let purpose): send(channel, data, purpose)
            case .acknowledge: preconditionFailure("acknowledgements are gathered into sends above")
            case .run(let call):
                world.observer.handlerRan(origin, call)
                finished.append((call, handler(call)))
            case .accepted(let id): world.observer.accepted(origin, id)
            case .complete(let id, let outcome): world.observer.completed(origin, id, outcome)
            case .stateChanged, .event: break
            }
        }
        guard isUp, incarnation == life else { return }
        if !finished.isEmpty {
            apply { engine in
                var actions: [LinkAction] = []
                for (call, result) in finished {
                    actions += engine.handlerFinished(
                        idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: now)
                }
                return actions
            }
            guard isUp, incarnation == life else { return }
        }
        scheduleWake()
    }

    private func send(_ channel: SessionChannel, _ data: Data, _ purpose: SendPurpose) {
        guard let session else { return }
        if purpose == .response, case .acknowledgements(let acknowledgements)? = try? WireCodec.decode(data) {
            world.observer.acknowledged(origin, acknowledgements.entries.count)
        }
        do {
            switch channel {
            case .message: try session.sendMessage(data)
            case .userInfo: try session.transferUserInfo(data, for: purpose)
            case .applicationContext: try session.updateApplicationContext(data)
            }
        } catch {
            apply { $0.transmitFailed(purpose, channel: channel, data: data, error: error, now: now) }
        }
    }

    func scheduleWake() {
        guard let wake = engine?.nextWakeup?.milliseconds else { return }
        let at = max(wake, world.now)
        if let scheduled = scheduledWake, scheduled <= at { return }
        scheduledWake = at
        let life = incarnation
        world.schedule(at: at) { [unowned self] in
            guard self.isUp, self.incarnation == life, self.scheduledWake == at else { return }
            self.scheduledWake = nil
            self.apply { $0.tick(now: self.now) }
        }
    }

    /// Activation completed.
    func sessionDidActivate(_ state: SessionActivationState) {
        apply { $0.activate(now: now) }
        world.refreshReachability()
        world.pumpUserInfo(to: origin)
        world.pumpFiles(to: origin)
    }

    /// Reachability changed.
    func sessionReachabilityDidChange(_ isReachable: Bool) {
        apply { $0.setReachable(isReachable, now: now) }
    }

    /// Queues a file transfer from this device.
    ///
    /// - Throws: `not_activated` while the device is down or activating, or the session's error.
    package func transferFile(_ url: URL, metadata: [String: String] = [:]) throws(WatchLinkError) -> FileTransfer {
        guard isUp, let session else { throw WatchLinkError(.notActivated, "device is down") }
        return try session.transferFile(url, metadata: metadata)
    }

    /// Cancels a file transfer from this device.
    package func cancelFileTransfer(_ id: UUID) { session?.cancelFileTransfer(id) }

    /// File transfers from this device not yet delivered (owned by the simulated system, so they survive crashes).
    package var outstandingFileTransfers: [FileTransfer] { world.fileQueues[origin.counterpart]!.map(\.0) }

    /// A file arrived: the observer sees it while its temporary file exists.
    func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError) {
        try world.observer.fileReceived(origin, file)
    }

    /// One of this device's file transfers finished.
    func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?) {
        world.observer.fileTransferFinished(origin, transfer, error)
    }

    /// Data arrived.
    func sessionDidReceive(_ data: Data, on channel: SessionChannel) {
        apply { $0.receive(data, on: channel, now: now) }
    }
}
