import Dispatch

/// A task executor that runs tasks as jobs of one connection: on whichever thread runs the
/// connection's jobs when the task is resumed — for a task waiting on a response, the socket's
/// reading thread that read it (see ``WatchConnection/taskExecutor``).
///
/// A task that prefers it makes its round trips with two thread wake-ups, one per side, where a
/// task on the global executor makes three: the response is read, settled and the task resumed,
/// and the task's next request written, on the thread that read the response, with no hand-over
/// to a thread of the pool. The price: while the task runs, the connection runs nothing else
/// (and the socket's reader may be inside a session callback), so code in such a task must be
/// short, must never block, and must not call the session directly.
public final class WatchConnectionExecutor: TaskExecutor {
    let queue: InlineSerialQueue

    init(queue: InlineSerialQueue) {
        self.queue = queue
    }

    /// Runs `job` after the connection's current job, on whichever thread runs the connection's
    /// jobs then; when no job runs, on a thread of the global dispatch pool. Never on the calling
    /// thread before this returns.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // NB: never before returning: the runtime may still be suspending the task when it
        // enqueues it.
        queue.runLater { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
