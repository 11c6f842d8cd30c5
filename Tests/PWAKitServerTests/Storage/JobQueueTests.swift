import Foundation
import PWAKitServer
import Synchronization
import Testing

/// What concurrent workers did, counted.
final class Tally: Sendable {
    let claims = Mutex<[String: Int]>([:])
    let completions = Mutex(0)
}

/// The durable queue's properties on real engines. Each test works its own job kind, so suites
/// sharing one PostgreSQL database never claim each other's jobs.
@Suite("Job queue")
struct JobQueueTests {
    static let start = Date(timeIntervalSince1970: 1_900_000_000)

    static func job(_ kind: String, post: String? = nil, priority: Int = 0, maxAttempts: Int = 3, runAt: Date = start)
        -> JobRecord
    {
        JobRecord(
            id: UUID().uuidString, kind: kind, postId: post, priority: priority, maxAttempts: maxAttempts, runAt: runAt,
            createdAt: start)
    }

    @Test("1,000 concurrent enqueues for one post leave one active job", arguments: StorageEngine.available)
    func oneActiveJobPerPost(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let post = "post-\(uniqueSuffix())"
            let queued = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 { group.addTask { try await storage.enqueueJob(Self.job(kind, post: post)) } }
                var count = 0
                for try await inserted in group where inserted { count += 1 }
                return count
            }
            #expect(queued == 1)
            #expect(try await storage.jobs(postId: post).count == 1)
            // Once it is done, the post may have a new one.
            let claimed = try await storage.claimJobs(
                kinds: [kind], worker: "w", limit: 10, now: Self.start, leaseUntil: Self.start + 60)
            #expect(claimed.count == 1)
            #expect(try await !storage.enqueueJob(Self.job(kind, post: post)), "a running job is still active")
            #expect(try await storage.completeJob(id: claimed[0].id, leaseToken: claimed[0].leaseToken, now: Self.start))
            #expect(try await storage.enqueueJob(Self.job(kind, post: post)))
        }
    }

    @Test("claims follow priority, then run time; future jobs wait", arguments: StorageEngine.available)
    func order(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let late = Self.job(kind, priority: 0, runAt: Self.start + 10)
            let low = Self.job(kind, priority: 5)
            let high = Self.job(kind, priority: 1)
            let future = Self.job(kind, priority: 0, runAt: Self.start + 3600)
            for job in [late, low, high, future] { _ = try await storage.enqueueJob(job) }
            let first = try await storage.claimJobs(
                kinds: [kind], worker: "w", limit: 10, now: Self.start + 20, leaseUntil: Self.start + 80)
            #expect(first.map(\.id) == [late.id, high.id, low.id])
            #expect(first.allSatisfy { $0.state == .running && $0.attempt == 1 && $0.leaseToken == 1 && $0.worker == "w" })
            let none = try await storage.claimJobs(
                kinds: [kind], worker: "w", limit: 10, now: Self.start + 20, leaseUntil: Self.start + 80)
            #expect(none.isEmpty)
            let other = try await storage.claimJobs(
                kinds: ["other-\(uniqueSuffix())"], worker: "w", limit: 10, now: Self.start + 7200,
                leaseUntil: Self.start + 7300)
            #expect(other.isEmpty, "a claim takes only its kinds")
        }
    }

    @Test(
        "one statement completes held jobs and claims more; a stale token completes nothing",
        arguments: StorageEngine.available)
    func completeAndClaim(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            for index in 0..<5 { _ = try await storage.enqueueJob(Self.job(kind, runAt: Self.start + Double(index))) }
            let held = try await storage.claimJobs(
                kinds: [kind], worker: "w", limit: 2, now: Self.start + 10, leaseUntil: Self.start + 70)
            #expect(held.count == 2)
            let stale = JobLease(id: held[1].id, leaseToken: held[1].leaseToken - 1)
            let (claimed, completed) = try await storage.completeAndClaimJobs(
                completing: [JobLease(id: held[0].id, leaseToken: held[0].leaseToken), stale], kinds: [kind], worker: "w",
                limit: 2, now: Self.start + 20, leaseUntil: Self.start + 80)
            #expect(completed == [held[0].id], "the stale token completed nothing")
            #expect(claimed.count == 2)
            #expect(claimed.allSatisfy { $0.state == .running && $0.attempt == 1 && $0.worker == "w" })
            #expect(Set(claimed.map(\.id)).isDisjoint(with: held.map(\.id)))
            let first = try #require(try await storage.job(id: held[0].id))
            #expect(first.state == .completed && first.leaseUntil == nil)
            #expect(try await storage.job(id: held[1].id)?.state == .running, "the other job is untouched")
            // Completing alone (no kinds, no limit) claims nothing; a completion is recorded once.
            let (none, again) = try await storage.completeAndClaimJobs(
                completing: [JobLease(id: held[0].id, leaseToken: held[0].leaseToken)]
                    + claimed.map { JobLease(id: $0.id, leaseToken: $0.leaseToken) },
                kinds: [], worker: "w", limit: 0, now: Self.start + 30, leaseUntil: Self.start + 90)
            #expect(none.isEmpty)
            #expect(again == Set(claimed.map(\.id)), "the job completed before is not completed twice")
        }
    }

    @Test(
        "completing a job that was rescued meanwhile neither completes nor claims it",
        arguments: StorageEngine.available)
    func completingARescuedJob(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            _ = try await storage.enqueueJob(Self.job(kind))
            let held = try #require(
                try await storage.claimJobs(
                    kinds: [kind], worker: "slow", limit: 1, now: Self.start + 10, leaseUntil: Self.start + 20
                ).first)
            // The lease runs out and the job is rescued: available again, due now, its token unchanged.
            #expect(try await storage.rescueJobs(kinds: [kind], now: Self.start + 30) == 1)
            let (claimed, completed) = try await storage.completeAndClaimJobs(
                completing: [JobLease(id: held.id, leaseToken: held.leaseToken)], kinds: [kind], worker: "slow", limit: 0,
                now: Self.start + 40, leaseUntil: Self.start + 100)
            #expect(claimed.isEmpty, "a limit of 0 claims nothing, even the job being completed")
            #expect(completed.isEmpty)
            let job = try #require(try await storage.job(id: held.id))
            #expect(job.state == .available && job.attempt == 1, "the rescued job waits for a claim of its own")
        }
    }

    @Test(
        "a worker whose lease ran out cannot complete, fail or extend the job another worker now holds",
        arguments: StorageEngine.available)
    func fencing(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let queued = Self.job(kind)
            _ = try await storage.enqueueJob(queued)
            let slow = try #require(
                try await storage.claimJobs(
                    kinds: [kind], worker: "slow", limit: 1, now: Self.start, leaseUntil: Self.start + 30
                ).first)
            #expect(try await storage.rescueJobs(kinds: [kind], now: Self.start + 10) == 0, "the lease still holds")
            #expect(try await storage.rescueJobs(kinds: [kind], now: Self.start + 31) == 1)
            #expect(
                try await !storage.completeJob(id: slow.id, leaseToken: slow.leaseToken, now: Self.start + 32),
                "a rescued job is not running")
            let fast = try #require(
                try await storage.claimJobs(
                    kinds: [kind], worker: "fast", limit: 1, now: Self.start + 32, leaseUntil: Self.start + 62
                ).first)
            #expect(fast.leaseToken == slow.leaseToken + 1)
            #expect(fast.attempt == 2)
            #expect(try await !storage.completeJob(id: slow.id, leaseToken: slow.leaseToken, now: Self.start + 33))
            #expect(
                try await storage.failJob(
                    id: slow.id, leaseToken: slow.leaseToken, error: "late", retryAt: Self.start, now: Self.start + 33,
                    final: false) == nil)
            #expect(try await !storage.extendJobLease(id: slow.id, leaseToken: slow.leaseToken, until: Self.start + 99))
            #expect(try await storage.extendJobLease(id: fast.id, leaseToken: fast.leaseToken, until: Self.start + 90))
            #expect(try await storage.completeJob(id: fast.id, leaseToken: fast.leaseToken, now: Self.start + 40))
            #expect(try await !storage.completeJob(id: fast.id, leaseToken: fast.leaseToken, now: Self.start + 41), "once")
            let done = try #require(try await storage.job(id: queued.id))
            #expect(done.state == .completed && done.worker == "fast")
        }
    }

    @Test(
        "a failed attempt waits for its retry time; the last one leaves the job dead with its error",
        arguments: StorageEngine.available)
    func retriesAndDeath(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let queued = Self.job(kind, maxAttempts: 2)
            _ = try await storage.enqueueJob(queued)
            var now = Self.start
            let first = try #require(
                try await storage.claimJobs(kinds: [kind], worker: "w", limit: 1, now: now, leaseUntil: now + 30).first)
            let state = try await storage.failJob(
                id: first.id, leaseToken: first.leaseToken, error: "HTTP 503", retryAt: now + 60, now: now, final: false)
            #expect(state == .available)
            #expect(
                try await storage.claimJobs(kinds: [kind], worker: "w", limit: 1, now: now + 59, leaseUntil: now + 90).isEmpty)
            now += 60
            let second = try #require(
                try await storage.claimJobs(kinds: [kind], worker: "w", limit: 1, now: now, leaseUntil: now + 30).first)
            #expect(second.attempt == 2 && second.lastError == "HTTP 503")
            let last = try await storage.failJob(
                id: second.id, leaseToken: second.leaseToken, error: "HTTP 404", retryAt: now + 60, now: now, final: false)
            #expect(last == .dead)
            let dead = try #require(try await storage.job(id: queued.id))
            #expect(dead.state == .dead && dead.lastError == "HTTP 404")
            #expect(
                try await storage.claimJobs(kinds: [kind], worker: "w", limit: 1, now: now + 999, leaseUntil: now + 1999).isEmpty)
            // A worker that died on its last attempt: rescue marks the job dead, not available.
            let other = Self.job(kind, maxAttempts: 1)
            _ = try await storage.enqueueJob(other)
            _ = try await storage.claimJobs(kinds: [kind], worker: "w", limit: 1, now: now, leaseUntil: now + 5)
            #expect(try await storage.rescueJobs(kinds: [kind], now: now + 6) == 1)
            #expect(try await storage.job(id: other.id)?.state == .dead)
        }
    }

    @Test(
        "16 concurrent workers over 10,000 jobs: every job claimed and completed exactly once",
        arguments: StorageEngine.available)
    func noDoubleClaims(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let total = 10_000
            try await withThrowingTaskGroup(of: Void.self) { group in
                for chunk in 0..<8 {
                    group.addTask {
                        for index in stride(from: chunk, to: total, by: 8) {
                            _ = try await storage.enqueueJob(Self.job(kind, post: "\(kind)-\(index)"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let tally = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        while true {
                            let batch = try await storage.claimJobs(
                                kinds: [kind], worker: "w\(worker)", limit: 8, now: Self.start, leaseUntil: Self.start + 3600)
                            if batch.isEmpty { return }
                            for job in batch {
                                tally.claims.withLock { $0[job.id, default: 0] += 1 }
                                if try await storage.completeJob(id: job.id, leaseToken: job.leaseToken, now: Self.start) {
                                    tally.completions.withLock { $0 += 1 }
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let counts = tally.claims.withLock { $0 }
            #expect(counts.count == total)
            #expect(counts.values.allSatisfy { $0 == 1 }, "double claims: \(counts.filter { $0.value > 1 }.count)")
            #expect(tally.completions.withLock { $0 } == total)
        }
    }

    @Test("completed and dead jobs are purged after their retention, active ones never", arguments: StorageEngine.available)
    func purge(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let kind = "test-\(uniqueSuffix())"
            let old = Self.job(kind, maxAttempts: 1)
            let recent = Self.job(kind)
            let dead = Self.job(kind, maxAttempts: 1)
            let waiting = Self.job(kind, runAt: Self.start + 999_999)
            for job in [old, recent, dead, waiting] { _ = try await storage.enqueueJob(job) }
            let claimed = try await storage.claimJobs(
                kinds: [kind], worker: "w", limit: 3, now: Self.start, leaseUntil: Self.start + 60)
            #expect(claimed.count == 3)
            for job in claimed where job.id == old.id {
                #expect(try await storage.completeJob(id: job.id, leaseToken: job.leaseToken, now: Self.start))
            }
            for job in claimed where job.id == recent.id {
                #expect(try await storage.completeJob(id: job.id, leaseToken: job.leaseToken, now: Self.start + 86_400 * 6))
            }
            for job in claimed where job.id == dead.id {
                _ = try await storage.failJob(
                    id: job.id, leaseToken: job.leaseToken, error: "gone", retryAt: Self.start, now: Self.start, final: true)
            }
            // Seven days on: the old completed job goes; the recent one, the dead one (30 days) and the waiting one stay.
            let now = Self.start + 86_400 * 7 + 1
            #expect(
                try await storage.purgeJobs(completedBefore: now - 86_400 * 7, deadBefore: now - 86_400 * 30, kinds: [kind]) == 1)
            #expect(try await storage.job(id: old.id) == nil)
            #expect(try await storage.job(id: recent.id)?.state == .completed)
            #expect(try await storage.job(id: dead.id)?.state == .dead)
            let later = Self.start + 86_400 * 31
            #expect(
                try await storage.purgeJobs(completedBefore: later - 86_400 * 7, deadBefore: later - 86_400 * 30, kinds: [kind])
                    == 2)
            #expect(try await storage.job(id: waiting.id)?.state == .available)
            #expect(try await storage.purgeJobs(completedBefore: later, deadBefore: later, kinds: []) == 0)
        }
    }
}
