import Foundation
import Logging
import PWAKitRetry
import PWAKitServer
import PWAKitTesting
import ServiceLifecycle
import Synchronization
import Testing

/// A handler that records what it ran and fails as told.
final class ScriptedHandler: JobHandler {
    let kind: String
    let runs = Mutex<[String: Int]>([:])
    let failFirst: Int
    let permanent: Bool
    let gate: AsyncStream<Void>?
    /// Whether runs yield a while, so that several overlap (``mostAtOnce`` counts them).
    let probe: Bool
    let atOnce = Atomic(0)
    let mostAtOnce = Atomic(0)

    init(kind: String, failFirst: Int = 0, permanent: Bool = false, gate: AsyncStream<Void>? = nil, probe: Bool = false) {
        self.kind = kind
        self.probe = probe
        self.failFirst = failFirst
        self.permanent = permanent
        self.gate = gate
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    func run(_ job: JobRecord) async throws {
        let count = runs.withLock { runs in
            runs[job.id, default: 0] += 1
            return runs[job.id, default: 0]
        }
        if probe {
            let now = atOnce.add(1, ordering: .relaxed).newValue
            mostAtOnce.max(now, ordering: .relaxed)
            for _ in 0..<20 { await Task.yield() }
            try? await Task.sleep(for: .milliseconds(1))
            atOnce.subtract(1, ordering: .relaxed)
        }
        if let gate { for await _ in gate { break } }
        try Task.checkCancellation()
        if permanent { throw PermanentJobFailure("the page is gone (HTTP 410)") }
        if count <= failFirst { throw Failure(description: "HTTP 503 on attempt \(count)") }
    }
}

@Suite("Job runner")
struct JobRunnerTests {
    static func enqueue(_ storage: some ServerStorage, kind: String, count: Int, at now: Date) async throws -> [String] {
        var ids: [String] = []
        for _ in 0..<count {
            let job = JobRecord(id: UUID().uuidString, kind: kind, postId: nil, maxAttempts: 3, runAt: now, createdAt: now)
            _ = try await storage.enqueueJob(job)
            ids.append(job.id)
        }
        return ids
    }

    @Test("8 slots run 200 jobs, each once, never more than 8 at a time, and complete them", arguments: StorageEngine.available)
    func runsEveryJobOnce(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "runner-\(uniqueSuffix())"
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            let ids = try await Self.enqueue(storage, kind: kind, count: 200, at: now)
            let handler = ScriptedHandler(kind: kind, probe: true)
            let runner = JobRunner(
                storage: storage, handlers: [handler], configuration: .init(worker: "t", concurrency: 8),
                clock: ImmediateClock(), now: { now })
            #expect(await runner.runUntilIdle() == 200)
            #expect(handler.mostAtOnce.load(ordering: .relaxed) <= 8)
            #expect(handler.mostAtOnce.load(ordering: .relaxed) > 1, "the slots ran side by side")
            #expect(handler.runs.withLock { $0 }.count == 200)
            #expect(handler.runs.withLock { $0 }.values.allSatisfy { $0 == 1 })
            for id in ids.prefix(20) { #expect(try await storage.job(id: id)?.state == .completed) }
        }
    }

    @Test(
        "a failed attempt backs off with jitter and is tried again; a permanent failure is dead at once",
        arguments: StorageEngine.available)
    func retries(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "runner-\(uniqueSuffix())"
            let clock = ManualClock(origin: Date(timeIntervalSince1970: 1_900_000_000))
            let id = try #require(try await Self.enqueue(storage, kind: kind, count: 1, at: clock.date).first)
            let handler = ScriptedHandler(kind: kind, failFirst: 2)
            let configuration = JobRunnerConfiguration(
                worker: "t", concurrency: 2,
                retry: .init(initialDelay: .seconds(10), multiplier: 2, maximumDelay: .seconds(3600)))
            let runner = JobRunner(
                storage: storage, handlers: [handler], configuration: configuration, clock: ImmediateClock(),
                now: { clock.date })
            #expect(await runner.runUntilIdle() == 1)
            var job = try #require(try await storage.job(id: id))
            #expect(job.state == .available && job.lastError == "HTTP 503 on attempt 1")
            let wait = job.runAt.timeIntervalSince(clock.date)
            #expect(wait >= 5 && wait <= 10, "the first retry waits half to all of 10 s, not \(wait)")
            #expect(await runner.runUntilIdle() == 0, "not due yet")
            clock.advance(seconds: 10)
            #expect(await runner.runUntilIdle() == 1)
            job = try #require(try await storage.job(id: id))
            let second = job.runAt.timeIntervalSince(clock.date)
            #expect(second >= 10 && second <= 20)
            clock.advance(seconds: 20)
            #expect(await runner.runUntilIdle() == 1)
            #expect(try await storage.job(id: id)?.state == .completed)
            #expect(handler.runs.withLock { $0[id] } == 3)

            let gone = ScriptedHandler(kind: "runner-\(uniqueSuffix())", permanent: true)
            let goneId = try #require(try await Self.enqueue(storage, kind: gone.kind, count: 1, at: clock.date).first)
            let permanent = JobRunner(
                storage: storage, handlers: [gone], configuration: configuration, clock: ImmediateClock(),
                now: { clock.date })
            #expect(await permanent.runUntilIdle() == 1)
            let dead = try #require(try await storage.job(id: goneId))
            #expect(dead.state == .dead && dead.attempt == 1 && dead.lastError == "the page is gone (HTTP 410)")
        }
    }

    @Test(
        "a worker that loses its lease stops the job and records nothing; the new holder's outcome stands",
        arguments: StorageEngine.available)
    func lostLease(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "runner-\(uniqueSuffix())"
            // NB: two clocks: the wall clock the leases are dated on, and the one the runner sleeps on,
            // so the lease can run out in the database before the runner's renewal wakes.
            let wall = ManualClock(origin: Date(timeIntervalSince1970: 1_900_000_000))
            let sleeper = ManualClock()
            let id = try #require(try await Self.enqueue(storage, kind: kind, count: 1, at: wall.date).first)
            let (gate, _) = AsyncStream.makeStream(of: Void.self)  // never opens: the job runs until cancelled
            let handler = ScriptedHandler(kind: kind, gate: gate)
            let runner = JobRunner(
                storage: storage, handlers: [handler],
                configuration: .init(worker: "slow", concurrency: 1, lease: .seconds(30)), clock: sleeper, now: { wall.date })
            let running = Task { await runner.runUntilIdle() }
            while handler.runs.withLock({ $0[id] }) == nil || sleeper.sleeperCount == 0 { await Task.yield() }
            // The lease runs out (the worker was paused), the job is rescued and another worker takes it.
            wall.advance(seconds: 31)
            #expect(try await storage.rescueJobs(kinds: [kind], now: wall.date) == 1)
            let taken = try #require(
                try await storage.claimJobs(
                    kinds: [kind], worker: "fast", limit: 1, now: wall.date, leaseUntil: wall.date + 30
                ).first)
            // The slow worker's next renewal finds the token gone and stops its handler; nothing is left to claim.
            sleeper.advance(seconds: 10)
            #expect(await running.value == 1)
            #expect(try await storage.job(id: id)?.state == .running, "the slow worker recorded nothing")
            #expect(try await storage.completeJob(id: id, leaseToken: taken.leaseToken, now: wall.date))
            #expect(try await storage.job(id: id)?.worker == "fast")
        }
    }

    @Test(
        "a graceful shutdown ends an idle runner's waits at once (the clock never moves)",
        .timeLimit(.minutes(1)), arguments: StorageEngine.available)
    func shutdownWhileIdle(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let clock = ManualClock()
            let runner = JobRunner(
                storage: storage, handlers: [ScriptedHandler(kind: "idle-\(uniqueSuffix())")],
                configuration: .init(concurrency: 2), clock: clock)
            let group = ServiceGroup(services: [runner], logger: Logger(label: "test"))
            let running = Task { try await group.run() }
            // The dispatcher and the rescue loop are asleep on a clock that will never advance.
            while clock.sleeperCount < 2 { await Task.yield() }
            await group.triggerGracefulShutdown()
            try await running.value
            #expect(clock.sleeperCount == 0)
        }
    }
}
