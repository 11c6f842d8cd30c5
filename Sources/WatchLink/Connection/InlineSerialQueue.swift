import Dispatch
import Synchronization

/// A serial queue without a thread of its own: the thread that submits a job while none runs
/// becomes the queue's runner and runs it at once, then every job submitted meanwhile, in order.
///
/// This is what lets a ``WatchConnection`` be driven on the threads that bring it work — a
/// caller's task, the socket's reading thread, the sync loop — with no hand-over to another thread,
/// while its state is still touched by one job at a time: a job submitted while another runs
/// (from another thread, or from within a job) is queued and run by the current runner right after.
/// A job never waits for another, so jobs never deadlock, and the runner never blocks a submitter.
///
/// NB: jobs must not block for long: the runner may be a socket's reading thread or a caller's
/// task. Work that waits on a disk goes through ``runOnThisThread(_:)`` from a thread of its own.
final class InlineSerialQueue: Sendable {
    private enum Entry {
        case job(@Sendable () -> Void)
        /// A thread waiting in ``runOnThisThread(_:)`` takes over as the runner here.
        case handOver(DispatchSemaphore)
    }

    private struct State {
        var entries: [Entry] = []
        var head = 0
        var running = false
    }

    private let state = Mutex(State())

    init() {}

    /// Runs `job` now on this thread when no job runs, else after the jobs already queued.
    func run(_ job: @escaping @Sendable () -> Void) {
        guard becomeRunner(orQueue: .job(job)) else { return }
        job()
        drain()
    }

    /// Runs `job` now on this thread when no job runs, else after the jobs already queued; then
    /// runs the jobs queued meanwhile only while `free()` says this thread has nothing else to do,
    /// and hands the rest to a task as soon as it has. For a thread with work of its own (the sync
    /// loop), which must not be kept running everybody's jobs.
    func runOne(_ job: @escaping @Sendable () -> Void, whileFree free: () -> Bool) {
        guard becomeRunner(orQueue: .job(job)) else { return }
        job()
        drain(whileFree: free)
    }

    /// Queues `job`, or, when no job runs, starts a task that runs it: never on this thread. For
    /// threads that must not be drafted as the runner (a canceller, a stream's termination).
    func runElsewhere(_ job: @escaping @Sendable () -> Void) {
        guard becomeRunner(orQueue: .job(job)) else { return }
        Task {
            job()
            self.drain()
        }
    }

    /// Queues `job`, or, when no job runs, runs it on a thread of the global dispatch pool: never
    /// on this thread, and never before returning. For an executor's `enqueue`, called while the
    /// runtime may still be suspending the task it hands over.
    func runLater(_ job: @escaping @Sendable () -> Void) {
        guard becomeRunner(orQueue: .job(job)) else { return }
        DispatchQueue.global().async {
            job()
            self.drain()
        }
    }

    /// Runs `job` on this thread, after the jobs already queued, waiting for them if need be; the
    /// jobs queued meanwhile then run in a task. For jobs that wait on a disk, from a thread that
    /// may wait (never a caller's task): the runner of the jobs before it hands its role over and
    /// returns, rather than running such a job itself.
    func runOnThisThread(_ job: () -> Void, whileFree free: () -> Bool = { true }) {
        let handOver = DispatchSemaphore(value: 0)
        if !becomeRunner(orQueue: .handOver(handOver)) { handOver.wait() }
        job()
        drain(whileFree: free)
    }

    /// Gives up the runner's role if nothing is queued, else hands it, with the queue, to a task.
    private func handOffRest() {
        let more = state.withLock { state -> Bool in
            guard state.head < state.entries.count else {
                state.entries.removeAll(keepingCapacity: state.entries.capacity <= 64)
                state.head = 0
                state.running = false
                return false
            }
            return true
        }
        if more { Task { self.drain() } }
    }

    /// Takes the runner's role if free (`true`), else queues `entry` (`false`).
    private func becomeRunner(orQueue entry: Entry) -> Bool {
        state.withLock { state in
            if state.running {
                state.entries.append(entry)
                return false
            }
            state.running = true
            return true
        }
    }

    /// Runs queued jobs until none is left (then gives up the role) or a waiting thread takes it over.
    private func drain(whileFree free: () -> Bool = { true }) {
        while true {
            guard free() else { return handOffRest() }
            guard let entry = nextEntry() else { return }
            switch entry {
            case .job(let job): job()
            case .handOver(let semaphore):
                // NB: the role passes to the waiting thread as it is: still running, queue intact.
                semaphore.signal()
                return
            }
        }
    }

    /// The next queued entry, or `nil` after giving up the runner's role when none is left.
    private func nextEntry() -> Entry? {
        state.withLock { state in
            guard state.head < state.entries.count else {
                state.entries.removeAll(keepingCapacity: state.entries.capacity <= 64)
                state.head = 0
                state.running = false
                return nil
            }
            let entry = state.entries[state.head]
            state.head += 1
            if state.head >= 1024 && state.head * 2 >= state.entries.count {
                // NB: a runner that never runs dry would otherwise keep every job it ran.
                state.entries.removeFirst(state.head)
                state.head = 0
            }
            return entry
        }
    }

    /// Runs `body` as a job and returns its result, suspending the caller only while earlier jobs run.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            run { continuation.resume(returning: body()) }
        }
    }
}
