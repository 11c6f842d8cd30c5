public import Foundation
public import Logging
public import PWAKitRetry
public import ServiceLifecycle
import Synchronization

/// How a ``JobRunner`` works the queue.
public struct JobRunnerConfiguration: Sendable {
    /// The worker's name on the jobs it holds.
    public var worker: String
    /// Jobs run at once.
    public var concurrency: Int
    /// How long a claim holds a job; a running job's lease is renewed every third of it.
    public var lease: Duration
    /// How long an idle worker waits before looking again.
    public var pollInterval: Duration
    /// How often expired leases are rescued (by default every half lease, at most every 30 s).
    public var rescueInterval: Duration
    /// The backoff between attempts (equal jitter: at least half of each ceiling).
    public var retry: RetryPolicy

    /// Creates a configuration.
    public init(
        worker: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)",
        concurrency: Int = 4, lease: Duration = .seconds(300), pollInterval: Duration = .seconds(1),
        rescueInterval: Duration? = nil,
        retry: RetryPolicy = RetryPolicy(initialDelay: .seconds(10), multiplier: 2, maximumDelay: .seconds(3600))
    ) {
        self.worker = worker
        self.concurrency = max(1, concurrency)
        self.lease = lease
        self.pollInterval = pollInterval
        // NB: a short lease is rescued soon after it runs out: every half lease, at most every 30 s.
        self.rescueInterval = rescueInterval ?? min(.seconds(30), lease / 2)
        self.retry = retry
    }
}

/// Works the durable queue: keeps up to `concurrency` jobs of the handlers' kinds running, claiming
/// as many as there are free slots in one statement, each run under a renewed lease and completed,
/// or its attempt failed with a backoff, by its fencing token. It rescues expired leases (a worker
/// that died) as it goes.
///
/// As a service (``run()``) it stops claiming on graceful shutdown and lets the jobs in hand
/// finish; ``runUntilIdle()`` works until no job is due, for tests and one-shot runs.
public final class JobRunner: Service, Sendable {
    let storage: any ServerStorage
    let handlers: [String: any JobHandler]
    let configuration: JobRunnerConfiguration
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let logger: Logger
    private let stopping = Atomic(false)
    private let wakeup = Wakeup()
    /// Finished jobs whose completion goes out with the next claim.
    private let completions = Mutex<[JobLease]>([])
    private let random = Mutex(SystemRandomNumberGenerator())

    /// A runner of `handlers` over `storage`; leases and retry times are read on `now`, waits on `clock`.
    public init(
        storage: any ServerStorage, handlers: [any JobHandler], configuration: JobRunnerConfiguration = .init(),
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "pwakit.jobs")
    ) {
        self.storage = storage
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    var kinds: [String] { handlers.keys.sorted() }

    /// Works the queue until a graceful shutdown (or cancellation), then finishes the jobs in hand.
    public func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.rescueLoop() }
                group.addTask { _ = await self.dispatch(untilIdle: false) }
            }
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .relaxed)
            self.wakeup.signal()
        }
    }

    /// Rescues expired leases once, then works until no job of its kinds is due; how many jobs it ran.
    @discardableResult
    public func runUntilIdle() async -> Int {
        _ = try? await storage.rescueJobs(kinds: kinds, now: now())
        return await dispatch(untilIdle: true)
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    /// Keeps up to `concurrency` jobs running. It claims as many jobs as there are free slots in one
    /// statement and runs each in a task of its own; a finished job wakes it to claim again. Slots
    /// that free while a claim is in flight are filled by the next one, so under load claims are
    /// batched the way a group commit batches writes. With slots free and the queue empty it looks
    /// again after the poll interval.
    private func dispatch(untilIdle: Bool) async -> Int {
        let clock = self.clock
        let poll = configuration.pollInterval
        let slots = Slots()
        let wakeup = self.wakeup
        return await withTaskGroup(of: Void.self) { group in
            var ran = 0
            while !isStopping {
                let free = configuration.concurrency - slots.running.load(ordering: .acquiring)
                var claimed: [JobRecord] = []
                let completing = completions.withLock { pending in
                    defer { pending.removeAll() }
                    return pending
                }
                if free > 0 || !completing.isEmpty {
                    claimed = await completeAndClaim(completing, limit: max(0, free))
                    slots.running.add(claimed.count, ordering: .releasing)
                    ran += claimed.count
                    for job in claimed {
                        group.addTask {
                            await self.process(job)
                            slots.running.subtract(1, ordering: .releasing)
                            wakeup.signal()
                        }
                    }
                }
                let busy = slots.running.load(ordering: .acquiring)
                // NB: idle only when a claim was made with every slot free and found nothing.
                if busy == 0, claimed.isEmpty, free == configuration.concurrency {
                    if untilIdle { break }
                    try? await cancelWhenGracefulShutdown { try await clock.sleep(for: poll) }
                    continue
                }
                if claimed.count < free, !slots.ticking.exchange(true, ordering: .acquiringAndReleasing) {
                    // NB: slots are free and the queue was empty: look again after the poll interval.
                    group.addTask {
                        try? await cancelWhenGracefulShutdown { try await clock.sleep(for: poll) }
                        slots.ticking.store(false, ordering: .releasing)
                        wakeup.signal()
                    }
                }
                if claimed.count == free, free > 0 { continue }
                await wakeup.wait()
            }
            // NB: only a tick can be left when idle; the jobs in hand always finish.
            if slots.running.load(ordering: .acquiring) == 0 { group.cancelAll() }
            await group.waitForAll()
            let left = completions.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            if !left.isEmpty { _ = await completeAndClaim(left, limit: 0) }
            return ran
        }
    }

    /// Records `completing` and claims up to `limit` jobs in one statement; on failure the
    /// completions are kept for the next one (their leases run out otherwise, and the jobs run again).
    private func completeAndClaim(_ completing: [JobLease], limit: Int) async -> [JobRecord] {
        let start = now()
        do {
            let (claimed, completed) = try await storage.completeAndClaimJobs(
                completing: completing, kinds: limit > 0 ? kinds : [], worker: configuration.worker, limit: limit,
                now: start, leaseUntil: start.addingTimeInterval(configuration.lease.seconds))
            for lease in completing where !completed.contains(lease.id) {
                logger.warning("job \(lease.id) finished after its lease was taken; the other worker's outcome stands")
            }
            return claimed
        } catch {
            logger.error("claiming jobs failed: \(error)")
            completions.withLock { $0.insert(contentsOf: completing, at: 0) }
            return []
        }
    }

    private func rescueLoop() async {
        let clock = self.clock
        while !isStopping {
            do {
                let rescued = try await storage.rescueJobs(kinds: kinds, now: now())
                if rescued > 0 { logger.warning("rescued \(rescued) jobs whose lease ran out") }
            } catch {
                logger.error("rescuing jobs failed: \(error)")
            }
            // NB: a graceful shutdown ends the wait at once, not after up to 30 s.
            try? await cancelWhenGracefulShutdown { try await clock.sleep(for: self.configuration.rescueInterval) }
        }
    }

    /// Runs one claimed job under a renewed lease and records how it ended.
    func process(_ job: JobRecord) async {
        guard let handler = handlers[job.kind] else { return }
        let lost = LeaseLoss()
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    try await handler.run(job)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask { await self.renew(job, lost: lost) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(CancellationError())
        }
        if lost.happened.load(ordering: .relaxed) {
            logger.warning("job \(job.id) lost its lease to another worker; its outcome is not recorded")
            return
        }
        let finished = now()
        do {
            switch outcome {
            case .success:
                // NB: recorded with the dispatcher's next claim, in the same statement.
                completions.withLock { $0.append(JobLease(id: job.id, leaseToken: job.leaseToken)) }
            case .failure(let error):
                let final = error is PermanentJobFailure
                let wait = retryDelay(afterAttempt: job.attempt)
                let state = try await storage.failJob(
                    id: job.id, leaseToken: job.leaseToken, error: String(describing: error).prefix(1000).description,
                    retryAt: finished.addingTimeInterval(wait.seconds), now: finished, final: final)
                if state == .dead { logger.error("job \(job.id) is dead after attempt \(job.attempt): \(error)") }
            }
        } catch {
            logger.error("recording job \(job.id) failed: \(error); its lease will run out and it will be rescued")
        }
    }

    /// Renews the lease every third of it while the job runs; returns (ending the job) when it is lost.
    private func renew(_ job: JobRecord, lost: LeaseLoss) async -> Result<Void, any Error>? {
        let clock = self.clock
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: configuration.lease / 3)
            } catch {
                return nil
            }
            let extended =
                (try? await storage.extendJobLease(
                    id: job.id, leaseToken: job.leaseToken, until: now().addingTimeInterval(configuration.lease.seconds)))
                ?? true
            if !extended {
                lost.happened.store(true, ordering: .relaxed)
                return .failure(CancellationError())
            }
        }
        return nil
    }

    /// The wait before the attempt after `attempt`: equal jitter over the policy's ceiling.
    func retryDelay(afterAttempt attempt: Int) -> Duration {
        let ceiling = configuration.retry.ceiling(forAttempt: attempt)
        let unit = random.withLock { Double($0.next() % 1_000_000) / 1_000_000 }
        return ceiling / 2 + ceiling * (unit / 2)
    }
}

/// The dispatcher's count of running jobs, and whether a poll wait is armed.
final class Slots: Sendable {
    let running = Atomic(0)
    let ticking = Atomic(false)
}

/// Wakes the dispatchers waiting (a runner may run ``JobRunner/run()`` and
/// ``JobRunner/runUntilIdle()`` at once): a signal while none waits is kept for the next wait.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Whether a running job's lease was taken by another worker.
final class LeaseLoss: Sendable {
    let happened = Atomic(false)
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
