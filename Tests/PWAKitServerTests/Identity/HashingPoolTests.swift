import Dispatch
import HTTPTypes
import Synchronization
import Testing

@testable import PWAKitServer

@Suite("Password hashing threads: shared by default, a server's own when configured")
struct HashingPoolTests {
    /// Counts arrivals; ``reached(_:)`` returns once `count` have arrived, whichever comes first.
    final class Arrivals: Sendable {
        private let state = Mutex<(count: Int, goal: Int, waiter: CheckedContinuation<Void, Never>?)>((0, 0, nil))

        func arrive() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.count += 1
                guard state.count >= state.goal, let waiter = state.waiter else { return nil }
                state.waiter = nil
                return waiter
            }
            waiter?.resume()
        }

        func reached(_ goal: Int) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard state.count < goal else { return true }
                    state.goal = goal
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Runs on `pool`'s threads, once arrived, until `gate` is opened (hashing threads may block); arrives
    /// too if the pool refuses it, so that no test waits for it forever.
    static func holdThread(_ pool: HashingPool, _ arrivals: Arrivals, _ gate: DispatchSemaphore) -> Task<Void, any Error> {
        Task {
            do {
                try await pool.run {
                    arrivals.arrive()
                    gate.wait()
                    gate.signal()
                }
            } catch {
                arrivals.arrive()
                throw error
            }
        }
    }

    /// Opens `gate` once; `true` for the call that opened it.
    static func opener(_ gate: DispatchSemaphore) -> @Sendable () -> Bool {
        let opened = Mutex(false)
        return {
            let first = opened.withLock { opened in
                defer { opened = true }
                return !opened
            }
            if first { gate.signal() }
            return first
        }
    }

    /// Opens `gate` after 60 s unless cancelled first: a test whose hash waits for a held thread then
    /// fails instead of hanging.
    static func watchdog(_ open: @escaping @Sendable () -> Bool) -> Task<Void, any Error> {
        Task {
            try await Task.sleep(for: .seconds(60))
            _ = open()
        }
    }

    @Test("by default a queue hashes on the threads the process shares; with threads of its own, on those alone")
    func sharedOrOwnThreads() {
        #expect(HashingPool(limit: 64).threads === HashingPool.shared)
        let own = HashingPool(limit: 64, threads: 1)
        #expect(own.threads !== HashingPool.shared)
        #expect(own.threads !== HashingPool(limit: 64, threads: 1).threads)
    }

    @Test("a queue with threads of its own hashes while another queue's threads are all held")
    func ownThreadsDoNotWaitForOthers() async throws {
        // NB: the shared threads are not held here: the other suites in this process hash on them.
        let busy = HashingPool(limit: 64, threads: 1)
        let arrivals = Arrivals()
        let gate = DispatchSemaphore(value: 0)
        let open = Self.opener(gate)
        let holder = Self.holdThread(busy, arrivals, gate)
        await arrivals.reached(1)
        let watchdog = Self.watchdog(open)
        let hasher = PasswordHasher(
            parameters: ScryptParameters(n: 16, r: 8, p: 1), pool: HashingPool(limit: 1, threads: 1))
        let encoded = try await hasher.hashOffLoop("correct horse", salt: Array(repeating: 7, count: 16))
        #expect(try await hasher.verifyOffLoop("correct horse", encoded: encoded))
        let openedByWatchdog = !open()
        watchdog.cancel()
        #expect(!openedByWatchdog, "the queue with threads of its own waited for another queue's")
        try await holder.value
    }

    @Test("a queue with threads of its own runs its hashes there: with its one thread held, the next waits")
    func ownThreadsAreTheOnesUsed() async throws {
        let own = HashingPool(limit: 2, threads: 1)
        let arrivals = Arrivals()
        let gate = DispatchSemaphore(value: 0)
        let open = Self.opener(gate)
        let holder = Self.holdThread(own, arrivals, gate)
        await arrivals.reached(1)
        let watchdog = Self.watchdog(open)
        let finished = Atomic(false)
        let next = Task {
            try await own.run { finished.store(true, ordering: .relaxed) }
        }
        // NB: on threads that are free (the shared ones, say) it would be done long before this; on the
        // held thread it cannot be, however slow the machine.
        try await Task.sleep(for: .milliseconds(200))
        let finishedWhileHeld = finished.load(ordering: .relaxed)
        #expect(!finishedWhileHeld, "the second hash ran while the queue's only thread was held")
        #expect(open(), "the watchdog opened the gate")
        watchdog.cancel()
        try await next.value
        let finishedOnceFreed = finished.load(ordering: .relaxed)
        #expect(finishedOnceFreed)
        try await holder.value
    }

    @Test("a server configured with hashingThreads hashes on threads of its own")
    func configurationReachesTheServer() async throws {
        let harness = try await Harness.make(engine: .sqlite) { $0.hashingThreads = 1 }
        #expect(harness.server.identity.hasher.pool.threads !== HashingPool.shared)
        try await harness.server.storage.close()
        let shared = try await Harness.make(engine: .sqlite)
        #expect(shared.server.identity.hasher.pool.threads === HashingPool.shared)
        try await shared.server.storage.close()
    }

    @Test("a queue with threads of its own keeps its limit: past it, 503 busy at once")
    func ownThreadsKeepTheLimit() async throws {
        let own = HashingPool(limit: 1, threads: 1)
        let arrivals = Arrivals()
        let gate = DispatchSemaphore(value: 0)
        let open = Self.opener(gate)
        let first = Self.holdThread(own, arrivals, gate)
        await arrivals.reached(1)
        // NB: a second hash admitted past the limit would wait for the held thread; this frees it.
        let watchdog = Self.watchdog(open)
        do {
            try await own.run { () }
            Issue.record("a second hash was admitted past a limit of 1")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.code == .busy)
            #expect(error.headers[.retryAfter] == "1")
        }
        #expect(open(), "the watchdog opened the gate")
        watchdog.cancel()
        try await first.value
        #expect(try await own.run { 42 } == 42)
    }
}
