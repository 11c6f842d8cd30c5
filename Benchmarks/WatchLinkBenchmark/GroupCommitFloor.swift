import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The durable floor: what any group commit of the same records must pay, and no more.
///
/// `senders` threads each append one send's records (as many, and as large, as WatchLink writes
/// per durable send) and wait until a sync covers them; one writer thread swaps a double buffer,
/// writes the whole group with one `pwrite` at the log's end, syncs it with `fdatasync`, and wakes
/// exactly the senders of that group (each on its own semaphore, no thundering herd). Like
/// WatchLink's log it grows its file ahead of the log with written zeros (a step as large as the
/// file, from 64 KiB to 1 MiB), so most syncs flush data only: a floor that paid a metadata commit
/// per sync would be slower than the raw best, and flatter WatchLink. With `--sync-latency`, each
/// sync then sleeps as long as WatchLink's do (``SyncLatency``).
final class GroupCommitFloor: @unchecked Sendable {
    private let fd: Int32
    private let path: String
    /// Guards the buffers and the waiting senders; the writer waits on it when there is nothing to write.
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var spare: [UInt8] = []
    /// The senders whose records are in `buffer`, each woken once its group is synced.
    private var waiting: [DispatchSemaphore] = []
    private var spareWaiting: [DispatchSemaphore] = []
    private var stopping = false
    private var writerDone = false
    /// Syncs that wrote something.
    private(set) var syncs = 0
    /// Records appended.
    private(set) var records = 0
    /// One send's records, already encoded.
    let send: [[UInt8]]
    /// The counterpart's log, in a floor of both sides: each group synced here appends as many
    /// sends' records there, which its own writer syncs with no sender waiting for it.
    private let follower: GroupCommitFloor?
    /// What each sync waits beyond `fdatasync`.
    private let latency: SyncLatency

    /// A floor appending, per send, `recordsPerSend` records totalling `bytesPerSend` bytes, and
    /// then, once they are synced, the follower's records for the same sends.
    init?(
        path: String, recordsPerSend: Int, bytesPerSend: Int, latency: SyncLatency = .none, follower: GroupCommitFloor? = nil
    ) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return nil }
        self.path = path
        self.follower = follower
        self.latency = latency
        let count = max(1, recordsPerSend)
        let size = max(1, bytesPerSend / count)
        send = (0..<count).map { _ in [UInt8](repeating: 0x72, count: size) }
        Thread.detachNewThread { self.writerLoop() }
    }

    /// Stops the writer once it has synced everything appended, and removes the file; a second
    /// call does nothing.
    func close() {
        condition.lock()
        guard !stopping else {
            condition.unlock()
            return
        }
        stopping = true
        condition.broadcast()
        while !writerDone { condition.wait() }
        condition.unlock()
        _ = Glibc.close(fd)
        unlink(path)
    }

    private func writerLoop() {
        var end = 0
        var allocated = 0
        condition.lock()
        while true {
            while buffer.isEmpty && !stopping { condition.wait() }
            if buffer.isEmpty {
                writerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            // NB: the double buffer: senders fill the other half while this group is written and synced.
            let bytes = buffer
            let group = waiting
            buffer = spare
            waiting = spareWaiting
            spare = []
            spareWaiting = []
            condition.unlock()
            _ = Self.writeAll(fd, bytes, at: end)
            end += bytes.count
            if end > allocated {
                let step = min(1 << 20, max(64 << 10, allocated))
                let grown = (end + step - 1) / step * step
                _ = Self.writeAll(fd, [UInt8](repeating: 0, count: grown - end), at: end)
                allocated = grown
            }
            fdatasync(fd)
            latency.pause()
            for sender in group { sender.signal() }
            follower?.follow(sends: group.count)
            condition.lock()
            spare = bytes
            spare.removeAll(keepingCapacity: true)
            spareWaiting = group
            spareWaiting.removeAll(keepingCapacity: true)
            syncs += 1
        }
    }

    /// Appends `sends` sends' records for the writer to sync, with nobody waiting for them.
    private func follow(sends: Int) {
        condition.lock()
        for _ in 0..<sends {
            for record in send { buffer += record }
        }
        records += sends * send.count
        condition.signal()
        condition.unlock()
    }

    /// Appends one send's records and waits until they are synced.
    private func durableSend(_ done: DispatchSemaphore) {
        condition.lock()
        for record in send { buffer += record }
        records += send.count
        waiting.append(done)
        condition.signal()
        condition.unlock()
        done.wait()
    }

    /// `count` sends from `senders` threads, each waiting for its send before the next; the time taken.
    func run(_ count: Int, senders: Int) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let group = DispatchGroup()
        for sender in 0..<senders {
            group.enter()
            Thread.detachNewThread {
                let done = DispatchSemaphore(value: 0)
                for _ in stride(from: sender, to: count, by: senders) { self.durableSend(done) }
                group.leave()
            }
        }
        group.wait()
        return start.duration(to: clock.now)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at start: Int) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(start + offset)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// CPU time (user + system) of this process, and of another one read from /proc.
enum CPUTime {
    /// This process's CPU time.
    static func ofSelf() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let micros =
            Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return .microseconds(micros)
    }

    /// The calling thread's CPU time.
    static func ofThisThread() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    /// The CPU time of process `pid` (utime + stime of /proc/PID/stat), or zero when unreadable.
    static func of(_ pid: Int32) -> Duration {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return .zero }
        // NB: fields after the command name (which may hold spaces); utime and stime are the 14th and 15th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return .zero }
        let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return .microseconds((user + system) * 1_000_000 / max(ticks, 1))
    }
}

/// A duration in microseconds.
func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
