import HTTPTypes
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Password hashing on threads of its own, never on the pool the database driver and file I/O
/// use, with a bounded queue: over ``limit`` hashes in flight or waiting, a request is refused at
/// once (503 `busy` with `Retry-After`) instead of queueing behind a flood and making everyone
/// wait. A registration flood then costs the flood, not the signed-in users.
final class HashingPool: Sendable {
    /// The threads every server in this process hashes on unless it has threads of its own: one per
    /// core but one (at least one).
    static let shared = NIOThreadPool(numberOfThreads: max(1, System.coreCount - 1))
    private static let started = Mutex(false)

    /// Hashes admitted (running or waiting) at once.
    let limit: Int
    private let admitted = Atomic<Int>(0)
    /// The threads this queue's hashes run on: ``shared``, or threads of its own (started with it,
    /// shut down when it goes).
    let threads: NIOThreadPool

    /// A queue of at most `limit` hashes, on the shared hashing threads, or, with `threads`, on that
    /// many threads of its own (at least one), so that another server's hashes in the same process
    /// never wait in front of its own.
    init(limit: Int, threads count: Int? = nil) {
        self.limit = max(1, limit)
        if let count {
            threads = NIOThreadPool(numberOfThreads: max(1, count))
            threads.start()
        } else {
            Self.started.withLock { started in
                if !started {
                    Self.shared.start()
                    started = true
                }
            }
            threads = Self.shared
        }
    }

    deinit {
        // NB: a hash holds its queue until it returns, so none is queued or running here; the threads end.
        if threads !== Self.shared { threads.shutdownGracefully { _ in } }
    }

    /// Runs `body` on a hashing thread, or throws `busy` when the queue is full.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let count = admitted.add(1, ordering: .relaxed).newValue
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard count <= limit else {
            throw APIError(
                .serviceUnavailable, .busy, "the server is busy; try again in a moment", headers: [.retryAfter: "1"])
        }
        return try await threads.runIfActive {
            Self.yieldToRequests()
            return try body()
        }
    }

    /// Lowers the calling hashing thread's priority to nice 10 (a system call, nothing beside a hash), so
    /// that under a flood of hashes the threads answering requests win the cores they share.
    private static func yieldToRequests() {
        #if canImport(Glibc)
            // NB: on Linux a nice value belongs to a thread; `who` 0 is the calling thread only.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
