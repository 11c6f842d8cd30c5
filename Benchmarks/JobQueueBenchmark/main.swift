import BenchmarkArguments
import Foundation
import PWAKitServer
import Synchronization

// Jobs claimed and completed per second through the storage's queue (claim by kind with
// SKIP LOCKED, fencing-token complete; loops claiming 1 and 8 at a time, and JobRunner itself with
// a handler that does nothing, which claims as many as it has free slots) against a bare floor in
// the same run: one statement that deletes the next row of a plain table
// `FOR UPDATE SKIP LOCKED`. Also posts created per second
// (insert with canonical dedupe plus the job enqueue). PostgreSQL only:
//   PWAKIT_BENCH_POSTGRES_URL=postgres://pwakit:pwakit@127.0.0.1:5432/pwakit swift run -c release JobQueueBenchmark [jobs]

let total = BenchmarkArguments.parse(
    name: "JobQueueBenchmark",
    usage: "usage: PWAKIT_BENCH_POSTGRES_URL=postgres://... JobQueueBenchmark [jobs]   (20000 if not given)"
) { try $0.leadingInteger("jobs", default: 20_000) }
let environment = ProcessInfo.processInfo.environment
guard let url = environment["PWAKIT_BENCH_POSTGRES_URL"] ?? environment["PWAKIT_TEST_POSTGRES_URL"] else {
    print("JobQueueBenchmark: set PWAKIT_BENCH_POSTGRES_URL to a PostgreSQL database; nothing measured")
    exit(0)
}
let storage = try await SQLStorage.postgres(url: url, maximumConnections: 20)
try await storage.migrate()
let start = Date(timeIntervalSince1970: 1_900_000_000)
let table = "bench_queue_\(UInt32.random(in: 0...UInt32.max))"
_ = try await storage.rawStatement(
    "CREATE TABLE \(table) (id TEXT PRIMARY KEY, priority INTEGER NOT NULL, run_at BIGINT NOT NULL)")
_ = try await storage.rawStatement("CREATE INDEX \(table)_order ON \(table) (priority, run_at, id)")

/// Hands out 0, 1, 2, … to concurrent loops.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let begun = clock.now
    try await body()
    let elapsed = begun.duration(to: clock.now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
}

/// Runs `workers` loops of `step` until each says there is nothing left.
func drain(workers: Int, _ step: @escaping @Sendable (Int) async throws -> Bool) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<workers { group.addTask { while try await step(worker) {} } }
        try await group.waitForAll()
    }
}

print("JobQueueBenchmark: \(total) jobs per run, PostgreSQL")
/// A handler that does nothing: the runner's own cost is what is measured.
struct NothingHandler: JobHandler {
    let kind: String
    func run(_ job: JobRecord) async throws {}
}

print("workers  claim   floor jobs/s  ours jobs/s  ours/floor")
// NB: a claim size of 0 is JobRunner with that many slots.
for (workers, claimSize) in [(1, 1), (4, 1), (16, 1), (1, 8), (4, 8), (16, 8), (1, 0), (4, 0), (16, 0)] {
    let kind = "bench-\(UUID().uuidString.prefix(8))"
    // Both queues are filled the same way, 500 rows per statement, outside the timing.
    for batch in stride(from: 0, to: total, by: 500) {
        let count = min(500, total - batch)
        let values = (0..<count).map { "('\(kind)-\(batch + $0)', 0, \(batch + $0))" }.joined(separator: ", ")
        _ = try await storage.rawStatement("INSERT INTO \(table) (id, priority, run_at) VALUES \(values)")
        for index in 0..<count {
            _ = try await storage.enqueueJob(
                JobRecord(
                    id: "\(kind)-\(batch + index)", kind: kind, postId: nil,
                    runAt: start.addingTimeInterval(Double(batch + index) / 1000),
                    createdAt: start))
        }
    }
    let floor = try await seconds {
        try await drain(workers: workers) { _ in
            try await storage.rawStatement(
                """
                DELETE FROM \(table) WHERE id = (SELECT id FROM \(table) ORDER BY priority, run_at, id LIMIT 1 \
                FOR UPDATE SKIP LOCKED) RETURNING id
                """) > 0
        }
    }
    let ours = try await seconds {
        if claimSize == 0 {
            let runner = JobRunner(
                storage: storage, handlers: [NothingHandler(kind: kind)],
                configuration: JobRunnerConfiguration(worker: "bench", concurrency: workers),
                now: { start.addingTimeInterval(3600) })
            let ran = await runner.runUntilIdle()
            precondition(ran == total, "the runner ran \(ran) of \(total) jobs")
            return
        }
        try await drain(workers: workers) { worker in
            let claimed = try await storage.claimJobs(
                kinds: [kind], worker: "w\(worker)", limit: claimSize, now: start.addingTimeInterval(3600),
                leaseUntil: start.addingTimeInterval(7200))
            guard !claimed.isEmpty else { return false }
            for job in claimed { _ = try await storage.completeJob(id: job.id, leaseToken: job.leaseToken, now: start) }
            return true
        }
    }
    let floorRate = Double(total) / floor
    let ourRate = Double(total) / ours
    let label = claimSize == 0 ? "runner" : "\(claimSize)"
    print(
        String(format: "%7d  ", workers) + label.padding(toLength: 6, withPad: " ", startingAt: 0)
            + String(format: "  %12.0f  %11.0f  %9.2fx", floorRate, ourRate, ourRate / floorRate))
    _ = try await storage.rawStatement("DELETE FROM jobs WHERE kind = $1", texts: [kind])
}

let owner = "bench-user-\(UUID().uuidString.prefix(8))"
let postCount = min(total, 5000)
let issued = Counter()
let posting = try await seconds {
    try await drain(workers: 16) { _ in
        let index = issued.next()
        guard index < postCount else { return false }
        let (post, created) = try await storage.insertPost(
            PostRecord(
                id: UUID().uuidString, userId: owner, url: "https://site.example/\(index)",
                canonicalURL: "https://site.example/\(index)", instructions: nil, createdAt: start, updatedAt: start))
        if created {
            _ = try await storage.enqueueJob(
                JobRecord(id: UUID().uuidString, kind: "bench-post", postId: post.id, runAt: start, createdAt: start))
        }
        return true
    }
}
let made = try await storage.rawStatement("SELECT 1 FROM posts WHERE user_id = $1", texts: [owner])
print(
    String(
        format: "posts created: %d in %.2f s, %.0f posts/s (16 concurrent, each with its job)", made, posting,
        Double(made) / posting))
_ = try await storage.rawStatement("DELETE FROM jobs WHERE kind = 'bench-post'")
_ = try await storage.rawStatement("DELETE FROM posts WHERE user_id = $1", texts: [owner])
_ = try await storage.rawStatement("DROP TABLE \(table)")
try await storage.close()
