import Dispatch
import HTTPTypes
import Synchronization
import Testing

@testable import PWAKitServer

@Suite("Password hashing threads: shared by default, a server's own when configured")
struct HashingPoolTests {
    /// One of a pool's threads, held (hashing threads may block) until ``finish()``; a watchdog lets it
    /// go after 60 s, so that a test whose hash waits for it fails instead of hanging.
    final class HeldThread: Sendable {
        private struct State {
            var arrived = false
            var waiter: CheckedContinuation<Void, Never>?
            var released = false
        }
        private let gate = DispatchSemaphore(value: 0)
        private let state = Mutex(State())
        private let tasks = Mutex<(holder: Task<Void, any Error>?, watchdog: Task<Void, any Error>?)>((nil, nil))

        /// Holds one of `pool`'s threads; returns once it is held (or the pool refused the holder).
        static func hold(_ pool: HashingPool) async -> HeldThread {
            let held = HeldThread()
            let holder = Task {
                do {
                    try await pool.run {
                        held.arrive()
                        held.gate.wait()
                    }
                } catch {
                    held.arrive()
                    throw error
                }
            }
            await withCheckedContinuation { continuation in
                let now = held.state.withLock { state -> Bool in
                    guard !state.arrived else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                _ = held.release()
            }
            held.tasks.withLock { $0 = (holder, watchdog) }
            return held
        }

        private func arrive() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.arrived = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        /// Lets the thread go; `true` for the call that did.
        private func release() -> Bool {
            let first = state.withLock { state in
                defer { state.released = true }
                return !state.released
            }
            if first { gate.signal() }
            return first
        }

        /// Lets the thread go and waits for its holder to end; `false` if the watchdog had let it go.
        func finish() async throws -> Bool {
            let inTime = release()
            let (holder, watchdog) = tasks.withLock { $0 }
            watchdog?.cancel()
            try await holder?.value
            return inTime
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
        let held = await HeldThread.hold(HashingPool(limit: 64, threads: 1))
        let hasher = PasswordHasher(
            parameters: ScryptParameters(n: 16, r: 8, p: 1), pool: HashingPool(limit: 1, threads: 1))
        let encoded = try await hasher.hashOffLoop("correct horse", salt: Array(repeating: 7, count: 16))
        #expect(try await hasher.verifyOffLoop("correct horse", encoded: encoded))
        #expect(try await held.finish(), "the queue with threads of its own waited for another queue's")
    }

    @Test("a queue with threads of its own runs its hashes there: with its one thread held, the next waits")
    func ownThreadsAreTheOnesUsed() async throws {
        let own = HashingPool(limit: 2, threads: 1)
        let held = await HeldThread.hold(own)
        let finished = Atomic(false)
        let next = Task {
            try await own.run { finished.store(true, ordering: .relaxed) }
        }
        // NB: on threads that are free (the shared ones, say) it would be done long before this; on the
        // held thread it cannot be, however slow the machine.
        try await Task.sleep(for: .milliseconds(200))
        let finishedWhileHeld = finished.load(ordering: .relaxed)
        #expect(!finishedWhileHeld, "the second hash ran while the queue's only thread was held")
        #expect(try await held.finish(), "the watchdog let the thread go")
        try await next.value
        let finishedOnceFreed = finished.load(ordering: .relaxed)
        #expect(finishedOnceFreed)
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
        // NB: a second hash admitted past the limit would wait for the held thread (until the watchdog).
        let held = await HeldThread.hold(own)
        do {
            try await own.run { () }
            Issue.record("a second hash was admitted past a limit of 1")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.code == .busy)
            #expect(error.headers[.retryAfter] == "1")
        }
        #expect(try await held.finish(), "the watchdog let the thread go")
        #expect(try await own.run { 42 } == 42)
    }
}
