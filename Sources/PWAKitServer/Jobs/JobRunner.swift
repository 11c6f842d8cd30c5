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
    /// How often expired leases are rescued.
    public var rescueInterval: Duration
    /// The backoff between attempts (equal jitter: at least half of each ceiling).
    public var retry: RetryPolicy

    /// Creates a configuration.
    public init(
        worker: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)",
        concurrency: Int = 4, lease: Duration = .seconds(300), pollInterval: Duration = .seconds(1),
        rescueInterval: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(initialDelay: .seconds(10), multiplier: 2, maximumDelay: .seconds(3600))
    ) {
        self.worker = worker
        self.concurrency = max(1, concurrency)
        self.lease = lease
        self.pollInterval = pollInterval
        self.rescueInterval = rescueInterval
        self.retry = retry
    }
}

/// Works the durable queue: `concurrency` loops, each claiming one job of the handlers' kinds at a
/// time, running it under a renewed lease, and completing it, or failing the attempt with a
/// backoff, by its fencing token. It rescues expired leases (a worker that died) as it goes.
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
                for _ in 0..<configuration.concurrency { group.addTask { _ = await self.workLoop(untilIdle: false) } }
            }
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .relaxed)
        }
    }

    /// Rescues expired leases once, then works until no job of its kinds is due; how many jobs it ran.
    @discardableResult
    public func runUntilIdle() async -> Int {
        _ = try? await storage.rescueJobs(kinds: kinds, now: now())
        return await withTaskGroup(of: Int.self) { group in
            for _ in 0..<configuration.concurrency { group.addTask { await self.workLoop(untilIdle: true) } }
            return await group.reduce(0, +)
        }
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    private func workLoop(untilIdle: Bool) async -> Int {
        var ran = 0
        let clock = self.clock
        while !isStopping {
            let claimed: [JobRecord]
            do {
                let start = now()
                claimed = try await storage.claimJobs(
                    kinds: kinds, worker: configuration.worker, limit: 1, now: start,
                    leaseUntil: start.addingTimeInterval(configuration.lease.seconds))
            } catch {
                logger.error("claiming jobs failed: \(error)")
                claimed = []
            }
            guard let job = claimed.first else {
                if untilIdle { return ran }
                try? await cancelWhenGracefulShutdown { try await clock.sleep(for: self.configuration.pollInterval) }
                continue
            }
            await process(job)
            ran += 1
        }
        return ran
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
                if try await !storage.completeJob(id: job.id, leaseToken: job.leaseToken, now: finished) {
                    logger.warning("job \(job.id) finished after its lease was taken; the other worker's outcome stands")
                }
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
