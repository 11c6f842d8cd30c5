package import Foundation
package import PWAKitRetry
package import WatchLink

/// Receives what happens in a ``PairedSimulation``, for invariant checking.
package struct SimulationObserver {
    /// A handler body executed on a device.
    package var handlerRan: (DeviceOrigin, InboundCall) -> Void = { _, _ in }
    /// A device sent an acknowledgement frame of this many entries.
    package var acknowledged: (DeviceOrigin, Int) -> Void = { _, _ in }
    /// A request was accepted by its sender.
    package var accepted: (DeviceOrigin, UUID) -> Void = { _, _ in }
    /// A request was settled at its sender.
    package var completed: (DeviceOrigin, UUID, Result<Data, WatchLinkError>) -> Void = { _, _, _ in }
    /// A device crashed; its durable log is passed for inspection.
    package var crashed: (DeviceOrigin, SimulatedDisk) -> Void = { _, _ in }
    /// A file reached a device; its `url` is deleted when this returns. Throwing refuses it
    /// (it stays queued and is delivered again).
    package var fileReceived: (DeviceOrigin, ReceivedFile) throws(WatchLinkError) -> Void = { _, _ in }
    /// A device heard that one of its file transfers finished (`nil`: delivered).
    package var fileTransferFinished: (DeviceOrigin, FileTransfer, WatchLinkError?) -> Void = { _, _, _ in }

    /// Creates an observer that ignores everything.
    package init() {}
}

/// A deterministic, discrete-event simulation of a phone and a watch with a faulty link.
///
/// Everything — latency, faults, crashes, engine jitter — is drawn from one seeded generator
/// and events run in (time, insertion) order, so a seed replays byte-identically.
package final class PairedSimulation {
    /// Simulated time in milliseconds.
    package private(set) var now: Int64 = 1_700_000_000_000
    /// The fault plan; replace it with ``FaultPlan/none`` to let the system quiesce.
    package var faults: FaultPlan
    /// Faults injected so far, by kind.
    package private(set) var faultCounts: [FaultKind: Int] = [:]
    /// What the invariant checker hears.
    package var observer = SimulationObserver()
    /// The seeded source of every random choice.
    package internal(set) var random: SeededRandom
    /// A running FNV-1a digest of every delivery, for replay comparison.
    package private(set) var traceDigest: UInt64 = 0xcbf2_9ce4_8422_2325

    var queue = EventQueue()
    var endpoints: [DeviceOrigin: SimulatedEndpoint] = [:]
    var linkUp = true
    /// User info queued for each device, with the key each transfer was queued under.
    var userInfoQueues: [DeviceOrigin: [(key: UUID?, data: Data)]] = [.phone: [], .watch: []]
    /// The most transfers either queue has held at once.
    package private(set) var userInfoLongest = 0
    var userInfoPumpScheduled: Set<DeviceOrigin> = []
    var sentContext: [DeviceOrigin: Data] = [:]
    var receivedContext: [DeviceOrigin: Data] = [:]
    var contextGeneration: [DeviceOrigin: Int] = [.phone: 0, .watch: 0]
    var deliveredContextGeneration: [DeviceOrigin: Int] = [.phone: 0, .watch: 0]
    /// File transfers owned by the simulated system, by receiver; they survive either app's crashes.
    var fileQueues: [DeviceOrigin: [(FileTransfer, Data)]] = [.phone: [], .watch: []]
    var filePumpScheduled: Set<DeviceOrigin> = []
    /// Where delivered files are written for the length of a delegate callback.
    let fileScratch = FileManager.default.temporaryDirectory.appendingPathComponent("watchlink-sim-\(UUID().uuidString)")

    /// Creates a simulation; devices boot when ``start(configuration:resolutions:handler:)`` is called.
    package init(seed: UInt64, faults: FaultPlan = FaultPlan()) {
        self.random = SeededRandom(seed: seed)
        self.faults = faults
    }

    deinit { try? FileManager.default.removeItem(at: fileScratch) }

    /// The device `origin`.
    package func endpoint(_ origin: DeviceOrigin) -> SimulatedEndpoint { endpoints[origin]! }

    /// Boots both devices and starts the fault processes.
    package func start(
        configuration: LinkEngine.Configuration = LinkEngine.Configuration(), resolutions: [String: StateResolution] = [:],
        handler: @escaping (DeviceOrigin, InboundCall) -> Result<Data, WatchLinkError>
    ) {
        for origin in [DeviceOrigin.phone, .watch] {
            endpoints[origin] = SimulatedEndpoint(
                origin: origin, world: self, configuration: configuration, resolutions: resolutions,
                handler: { handler(origin, $0) })
        }
        for origin in [DeviceOrigin.phone, .watch] {
            endpoints[origin]!.boot()
            scheduleNextCrash(of: origin)
        }
        scheduleNextFlap()
    }

    /// Schedules `work` at simulated time `time`.
    package func schedule(at time: Int64, _ work: @escaping () -> Void) {
        queue.push(at: max(time, now), work)
    }

    /// Runs events until none remain before `time`, then sets the clock to `time`.
    package func run(until time: Int64) {
        while let next = queue.nextTime, next <= time, let (at, work) = queue.pop() {
            now = max(now, at)
            work()
        }
        now = max(now, time)
    }

    /// Whether any events are pending.
    package var hasPendingEvents: Bool { !queue.isEmpty }

    // MARK: Faults

    func count(_ kind: FaultKind) {
        faultCounts[kind, default: 0] += 1
        mix(UInt64(kind.rawValue.utf8.count) &+ 0x51)
    }

    func mix(_ value: UInt64) {
        traceDigest = (traceDigest ^ value) &* 0x100_0000_01b3
    }

    func mix(_ data: Data) {
        for byte in data { traceDigest = (traceDigest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    func randomIn(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    func maybeCrashBetweenEffects(_ endpoint: SimulatedEndpoint) -> Bool {
        guard random.chance(faults.crashPointRate) else { return false }
        count(.crashBetweenEffects)
        crash(endpoint.origin)
        return true
    }

    func maybeCrashBeforeHandler(_ endpoint: SimulatedEndpoint) -> Bool {
        guard random.chance(faults.crashBeforeHandlerRate) else { return false }
        count(.crashBeforeHandler)
        crash(endpoint.origin)
        return true
    }

    func crash(_ origin: DeviceOrigin) {
        let endpoint = endpoints[origin]!
        guard endpoint.isUp else { return }
        endpoint.crash()
        observer.crashed(origin, endpoint.disk)
        mix(0xC0FFEE &+ UInt64(now))
        schedule(at: now + randomIn(faults.downtime)) { [unowned self] in
            endpoint.boot()
            self.refreshReachability()
        }
        schedule(at: now) { [unowned self] in self.refreshReachability() }
    }

    func scheduleNextCrash(of origin: DeviceOrigin) {
        guard faults.crashInterval > 0 else { return }
        let at = now + randomIn(1...(2 * faults.crashInterval))
        schedule(at: at) { [unowned self] in
            guard self.faults.crashInterval > 0 else { return }
            if self.endpoints[origin]!.isUp {
                self.count(.crash)
                self.crash(origin)
            }
            self.scheduleNextCrash(of: origin)
        }
    }

    func scheduleNextFlap() {
        guard faults.flapInterval > 0 else { return }
        schedule(at: now + randomIn(1...(2 * faults.flapInterval))) { [unowned self] in
            guard self.faults.flapInterval > 0 else { return }
            self.count(.flap)
            self.linkUp = false
            self.refreshReachability()
            self.schedule(at: self.now + self.randomIn(self.faults.flapDowntime)) { [unowned self] in
                self.linkUp = true
                self.refreshReachability()
                self.scheduleNextFlap()
            }
        }
    }

    /// Ends every fault process and brings the link and both devices up, so the system can quiesce.
    package func quiesce() {
        faults = .none
        linkUp = true
        schedule(at: now) { [unowned self] in self.refreshReachability() }
    }

    // MARK: Session plumbing

    func isReachable(from origin: DeviceOrigin) -> Bool {
        guard linkUp, let mine = endpoints[origin], let theirs = endpoints[origin.counterpart] else { return false }
        return mine.isUp && theirs.isUp && mine.session?.state == .activated && theirs.session?.state == .activated
    }

    func refreshReachability() {
        for origin in [DeviceOrigin.phone, .watch] {
            guard let endpoint = endpoints[origin], endpoint.isUp, let session = endpoint.session, session.state == .activated
            else { continue }
            let reachable = isReachable(from: origin)
            if reachable != endpoint.lastReachable {
                endpoint.lastReachable = reachable
                session.delegate?.sessionReachabilityDidChange(reachable)
            }
        }
        if linkUp { for origin in [DeviceOrigin.phone, .watch] { pumpFiles(to: origin) } }
    }

    func scheduleActivation(of session: SimulatedSession) {
        schedule(at: now + randomIn(1...50)) { [unowned self] in
            guard let endpoint = self.endpoints[session.side], endpoint.isUp, endpoint.incarnation == session.incarnation else {
                return
            }
            session.state = .activated
            session.delegate?.sessionDidActivate(.activated)
        }
    }

    func latency() -> Int64 {
        if random.chance(faults.delayRate) {
            count(.delay)
            return randomIn(faults.longDelay)
        }
        return randomIn(faults.latency)
    }

    func transmitMessage(from origin: DeviceOrigin, _ data: Data) {
        if random.chance(faults.dropRate) {
            count(.drop)
            return
        }
        let copies = random.chance(faults.duplicateRate) ? 2 : 1
        if copies == 2 { count(.duplicate) }
        for _ in 0..<copies {
            schedule(at: now + latency()) { [unowned self] in
                let target = self.endpoints[origin.counterpart]!
                guard self.isReachable(from: origin), let session = target.session else { return }
                self.mix(data)
                session.delegate?.sessionDidReceive(data, on: .message)
            }
        }
    }

    /// Queues `data` for the counterpart; under a `key` still queued, that transfer carries it
    /// instead (or, with ``FaultPlan/userInfoKeepsQueuedCopy``, stays as it is and `data` is dropped).
    func enqueueUserInfo(from origin: DeviceOrigin, _ data: Data, key: UUID?) {
        let target = origin.counterpart
        if let key, let index = userInfoQueues[target]!.firstIndex(where: { $0.key == key }) {
            if !faults.userInfoKeepsQueuedCopy { userInfoQueues[target]![index].data = data }
        } else {
            userInfoQueues[target]!.append((key, data))
        }
        userInfoLongest = max(userInfoLongest, userInfoQueues[target]!.count)
        pumpUserInfo(to: target)
    }

    func pumpUserInfo(to target: DeviceOrigin) {
        guard !userInfoPumpScheduled.contains(target), !(userInfoQueues[target]!.isEmpty) else { return }
        userInfoPumpScheduled.insert(target)
        schedule(at: now + latency()) { [unowned self] in
            self.userInfoPumpScheduled.remove(target)
            let endpoint = self.endpoints[target]!
            guard endpoint.isUp, let session = endpoint.session, session.state == .activated else { return }
            guard !self.userInfoQueues[target]!.isEmpty else { return }
            if self.userInfoQueues[target]!.count > 1 && self.random.chance(self.faults.reorderRate) {
                self.count(.reorder)
                self.userInfoQueues[target]!.swapAt(0, 1)
            }
            let data = self.userInfoQueues[target]!.removeFirst().data
            if self.random.chance(self.faults.dropRate) {
                self.count(.drop)
            } else {
                let copies = self.random.chance(self.faults.duplicateRate) ? 2 : 1
                if copies == 2 { self.count(.duplicate) }
                for _ in 0..<copies {
                    guard endpoint.isUp, let live = endpoint.session else { break }
                    self.mix(data)
                    live.delegate?.sessionDidReceive(data, on: .userInfo)
                }
            }
            self.pumpUserInfo(to: target)
        }
    }

    func updateContext(from origin: DeviceOrigin, _ data: Data) {
        sentContext[origin] = data
        contextGeneration[origin]! += 1
        let generation = contextGeneration[origin]!
        if random.chance(faults.dropRate) {
            count(.drop)
            return
        }
        let copies = random.chance(faults.duplicateRate) ? 2 : 1
        if copies == 2 { count(.duplicate) }
        let target = origin.counterpart
        for _ in 0..<copies {
            schedule(at: now + latency()) { [unowned self] in
                // NB: latest wins; an older context never overwrites a newer one.
                guard generation >= self.deliveredContextGeneration[target]! else { return }
                self.deliveredContextGeneration[target] = generation
                self.receivedContext[target] = data
                let endpoint = self.endpoints[target]!
                guard endpoint.isUp, let session = endpoint.session, session.state == .activated else { return }
                self.mix(data)
                session.delegate?.sessionDidReceive(data, on: .applicationContext)
            }
        }
    }
}

extension PairedSimulation {
    func enqueueFile(from origin: DeviceOrigin, _ transfer: FileTransfer, _ data: Data) {
        fileQueues[origin.counterpart]!.append((transfer, data))
        pumpFiles(to: origin.counterpart)
    }

    func cancelFile(from origin: DeviceOrigin, _ id: UUID) {
        guard let index = fileQueues[origin.counterpart]!.firstIndex(where: { $0.0.id == id }) else { return }
        let (transfer, _) = fileQueues[origin.counterpart]!.remove(at: index)
        notifyFileFinished(
            at: origin, transfer,
            WatchLinkError(.cancelled, "file transfer cancelled", details: ["transferID": id.uuidString]))
    }

    /// Delivers the next file queued for `target` after a latency, with the fault plan's drops
    /// (the attempt fails and the file stays queued), duplicates, reordering and crashes of the
    /// receiver after its delegate returned and before the system recorded the delivery.
    func pumpFiles(to target: DeviceOrigin) {
        guard linkUp, !filePumpScheduled.contains(target), !fileQueues[target]!.isEmpty else { return }
        filePumpScheduled.insert(target)
        schedule(at: now + latency()) { [unowned self] in
            self.filePumpScheduled.remove(target)
            let endpoint = self.endpoints[target]!
            guard self.linkUp, endpoint.isUp, let session = endpoint.session, session.state == .activated,
                !self.fileQueues[target]!.isEmpty
            else { return }
            if self.fileQueues[target]!.count > 1 && self.random.chance(self.faults.reorderRate) {
                self.count(.reorder)
                self.fileQueues[target]!.swapAt(0, 1)
            }
            let (transfer, data) = self.fileQueues[target]!.removeFirst()
            if self.random.chance(self.faults.dropRate) {
                self.count(.drop)
                self.fileQueues[target]!.append((transfer, data))
                self.pumpFiles(to: target)
                return
            }
            let copies = self.random.chance(self.faults.duplicateRate) ? 2 : 1
            if copies == 2 { self.count(.duplicate) }
            var delivered = false
            for _ in 0..<copies {
                guard endpoint.isUp, let live = endpoint.session else { break }
                self.mix(data)
                do throws(WatchLinkError) {
                    try ReceivedFile.handOver(data, of: transfer, under: self.fileScratch) { (file) throws(WatchLinkError) in
                        try live.delegate?.sessionDidReceiveFile(file)
                    }
                    delivered = true
                } catch {
                    break
                }
            }
            if !delivered || self.maybeCrashBetweenEffects(endpoint) {
                // NB: not recorded as delivered: the system tries again, and the receiver's inbox dedupes.
                self.fileQueues[target]!.insert((transfer, data), at: 0)
            } else {
                self.notifyFileFinished(at: target.counterpart, transfer, nil)
            }
            self.pumpFiles(to: target)
        }
    }

    func notifyFileFinished(at origin: DeviceOrigin, _ transfer: FileTransfer, _ error: WatchLinkError?) {
        let endpoint = endpoints[origin]!
        guard endpoint.isUp, let session = endpoint.session, session.state == .activated else { return }
        session.delegate?.sessionDidFinishFileTransfer(transfer, error: error)
    }
}
