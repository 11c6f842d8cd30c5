import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing to the connection: frames, the one write lock, control frames (acknowledgements,
/// refusals, cancels) sent by a writer of their own so the reader never waits to write, and the
/// sharing of writes (the reader's batch of answers; messages that join the write in progress).
extension SocketSession {
    /// Frames waiting for the reply writer, and their bytes.
    struct PendingFrames {
        private(set) var frames: [[UInt8]] = []
        private(set) var bytes = 0
        /// The first frame is the rest of one whose start is already written: it waits for a
        /// writer that may block on a full socket (the reply writer), even in the reader's run.
        private(set) var startsWithRest = false

        var isEmpty: Bool { frames.isEmpty }

        /// Whether a writer other than the reader should send the queue now: always, except in the
        /// reader's run of message frames or while a thread gathers its messages (see
        /// ``SocketSession/sendingMessagesTogether(_:)``), whose end sends it (unless the rest of a
        /// frame waits).
        func isDue(batching: Bool) -> Bool { !frames.isEmpty && (!batching || startsWithRest) }

        mutating func append(_ frame: [UInt8]) {
            frames.append(frame)
            bytes += frame.count
        }

        /// Appends `frame` if the queue then holds at most `limit` bytes: the bytes queued, or
        /// `nil` (and nothing appended) when it would pass the limit.
        mutating func append(_ frame: [UInt8], upTo limit: Int) -> Int? {
            guard bytes + frame.count <= limit else { return nil }
            append(frame)
            return bytes
        }

        /// Puts the rest of a frame whose start is already written ahead of every queued frame.
        mutating func prepend(_ rest: [UInt8]) {
            frames.insert(rest, at: 0)
            bytes += rest.count
            startsWithRest = true
        }

        mutating func takeAll() -> [[UInt8]] {
            defer { removeAll() }
            return frames
        }

        mutating func removeAll() {
            frames.removeAll()
            bytes = 0
            startsWithRest = false
        }
    }

    /// The most the reader may queue for a counterpart that does not read: past it, the connection
    /// is dropped (and made again) as for a write that stalls.
    static let maximumQueuedBytes = 8 << 20

    /// A frame: 4-byte big-endian length, 1-byte kind, body.
    static func frame(_ kind: Kind, _ body: some Collection<UInt8>) -> [UInt8] {
        let n = UInt32(body.count + 1)
        // NB: one allocation, sized once, and one copy of the body (a `Data` body is not first
        // copied into an array of its own).
        var frame: [UInt8] = []
        frame.reserveCapacity(body.count + 5)
        frame.append(UInt8(n >> 24))
        frame.append(UInt8(n >> 16 & 0xFF))
        frame.append(UInt8(n >> 8 & 0xFF))
        frame.append(UInt8(n & 0xFF))
        frame.append(kind.rawValue)
        frame.append(contentsOf: body)
        return frame
    }

    /// Writes one frame; with a `generation`, only on that connection.
    func write(_ kind: Kind, _ body: [UInt8], generation: UInt64? = nil) -> Bool {
        write(waiting: Self.frame(kind, body), generation: generation)
    }

    /// Writes `frame` once the write lock is free, after whatever is queued (it may be the rest of
    /// a frame); with a `generation`, only on that connection.
    private func write(waiting frame: [UInt8], generation: UInt64? = nil) -> Bool {
        // NB: the descriptor is read under the write lock, which `serve` holds to retire it, so a
        // frame never goes to a closed (and perhaps reused) descriptor.
        let ok = writeLock.withLock { _ in
            let (fd, current) = state.withLock { ($0.fd, $0.generation) }
            guard fd >= 0, generation == nil || generation == current else { return false }
            sendPendingReplies()
            let ok = writeAll(fd, frame)
            if !ok { shutdown(fd, Int32(SHUT_RDWR)) }
            return ok
        }
        flushReplies()
        return ok
    }

    /// The most that threads other than the reader may queue (see ``write(_:)``), well below
    /// ``maximumQueuedBytes``, so the reader always has room for its own.
    static let maximumSharedBytes = 1 << 20

    /// Writes a message from a thread that is not the reader, after whatever is queued. While
    /// another thread holds the socket, the frame joins the queue instead, which a writer sends
    /// (in one write) when it gets the socket: every writer sends the queue, after its own frame
    /// or before. So concurrent senders share writes rather than wait in turn. With
    /// ``maximumSharedBytes`` queued, the caller waits for the socket as any writer does.
    /// `false` when not connected.
    func write(_ frame: [UInt8]) -> Bool {
        let written = writeLock.withLockIfAvailable { _ -> Bool in
            let fd = state.withLock { $0.fd }
            guard fd >= 0 else { return false }
            // NB: what is queued goes first: it may be the rest of a frame.
            var bytes = pendingReplies.withLock { Self.joined($0.takeAll()) }
            bytes += frame
            let ok = writeAll(fd, bytes)
            if !ok { shutdown(fd, Int32(SHUT_RDWR)) }
            return ok
        }
        if let written {
            flushReplies()
            return written
        }
        // NB: queued under the state lock with the connection checked, so a frame is not queued
        // for a connection already gone.
        let queued = state.withLock { state -> Bool? in
            guard state.fd >= 0 else { return false }
            return pendingReplies.withLock { $0.append(frame, upTo: Self.maximumSharedBytes) }.map { _ in true }
        }
        guard let queued else { return write(waiting: frame) }
        // NB: the writer may have finished before the frame was queued; then send it here.
        flushReplies()
        return queued
    }

    /// ``SocketIO/writeAll(_:_:)``, counted in ``writes``.
    func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        writes.add(1, ordering: .relaxed)
        return SocketIO.writeAll(fd, bytes)
    }

    static func joined(_ frames: [[UInt8]]) -> [UInt8] {
        guard frames.count != 1 else { return frames[0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames.reduce(0) { $0 + $1.count })
        for frame in frames { bytes += frame }
        return bytes
    }

    /// Whether this is the thread reading the current connection.
    var isReader: Bool {
        state.withLock { state in state.reader.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Where a message sent on this thread went (see ``queueIfBatching(_:)``).
    enum ReaderBatching {
        /// This is neither the reading thread nor a thread gathering its messages (or the queue
        /// has no room for a gatherer's): the caller writes the frame itself.
        case notReader
        /// Queued, to go out when the run of frames it answers, or the gathering, ends.
        case batched
        /// Queued by the reader, and the queue is now large enough to go out at once.
        case full
        /// Queued by a gathering thread, and the queue is now large enough to go out at once.
        case gatheredFull
        /// The reading thread, outside a run of message frames: it writes the frame now.
        case outsideRun
        /// The connection is gone (or the queue for it is full, and it was dropped).
        case notConnected
    }

    /// How much the reader queues in a run before it writes (one frame may take it past this).
    ///
    /// NB: small on purpose. The counterpart starts on the first answers while this thread handles
    /// the rest of the run, so the two processes work at once; with the whole run in one write they
    /// take turns (32 requests in flight: about 1.5 times the round trips per second with 2 KiB as
    /// with 64 KiB from tasks on the connection's executor, in `watchlink-benchmark`).
    static let maximumReaderBatch = 2_048

    /// Queues `frame` when called on the reading thread in a run of message frames, or on a thread
    /// gathering its messages; otherwise says why not.
    func queueIfBatching(_ frame: [UInt8]) -> ReaderBatching {
        state.withLock { state in
            guard let reader = state.reader, pthread_equal(reader, pthread_self()) != 0 else {
                guard let gatherer = state.gatherer, pthread_equal(gatherer, pthread_self()) != 0 else { return .notReader }
                guard state.fd >= 0 else { return .notConnected }
                // NB: past the room other threads have, the frame is written as any other thread's
                // (after the queue, so in order).
                guard let queued = pendingReplies.withLock({ $0.append(frame, upTo: Self.maximumSharedBytes) }) else {
                    return .notReader
                }
                return queued >= Self.maximumReaderBatch ? .gatheredFull : .batched
            }
            guard state.fd >= 0 else { return .notConnected }
            guard state.readerBatching else { return .outsideRun }
            guard let queued = queueFromReader(frame, fd: state.fd) else { return .notConnected }
            return queued >= Self.maximumReaderBatch ? .full : .batched
        }
    }

    /// Queues a frame the reader sends, called with the state lock held and the connection
    /// checked (so nothing is queued for a connection already gone); the bytes queued, or `nil`
    /// after dropping the connection when the queue would pass ``maximumQueuedBytes``: a
    /// counterpart that lets this much pile up loses the connection, as one whose writes stall does.
    private func queueFromReader(_ frame: [UInt8], fd: Int32) -> Int? {
        let queued = pendingReplies.withLock { $0.append(frame, upTo: Self.maximumQueuedBytes) }
        if queued == nil { shutdown(fd, Int32(SHUT_RDWR)) }
        return queued
    }

    /// Runs `body`, sending the messages it sends on this thread together (see
    /// ``WatchSession/sendingMessagesTogether(_:)``).
    ///
    /// On the reading thread, outside a run of message frames, `body` is made such a run: its
    /// messages are queued and written as the run's are (never waiting). On another thread, its
    /// messages are queued in ``pendingReplies`` as the reader's are, so no message sent later,
    /// from any thread, overtakes them. They are written when `body` returns: by this thread if no
    /// other holds the socket, else by the one that does once it lets go (every writer sends the
    /// queue), or by the reply writer, which is woken. Each time 2 KiB is queued, this thread writes
    /// the queue if the socket is free; if not, the queue waits for the next 2 KiB or the end (while
    /// a thread gathers, the queue is not due for others). As for any thread but the reader, this
    /// thread waits for another writer only once 1 MiB is queued. Meanwhile control frames and
    /// other threads' messages that found the socket held wait in the queue too, until `body`
    /// returns. Within a run, within this thread's own gathering, or while another thread gathers,
    /// `body` just runs (its messages then go as they would without it).
    public func sendingMessagesTogether(_ body: () -> Void) {
        enum Role { case reader, gatherer, inside }
        let role = state.withLock { state -> Role in
            let thread = pthread_self()
            if let reader = state.reader, pthread_equal(reader, thread) != 0 {
                guard !state.readerBatching else { return .inside }
                state.readerBatching = true
                return .reader
            }
            guard state.gatherer == nil, state.fd >= 0 else { return .inside }
            state.gatherer = thread
            return .gatherer
        }
        body()
        switch role {
        case .inside:
            break
        case .reader:
            endReaderBatch()
        case .gatherer:
            state.withLock { $0.gatherer = nil }
            flushGathered(ending: true)
        }
    }

    /// Sends the queue a gathering thread filled, if the socket is free. Once the gathering has
    /// ended, what others queued while this thread wrote is sent too (as every writer does after
    /// its own frame); and if another thread holds the socket, it sends the queue once it lets go,
    /// and the reply writer is woken as well.
    func flushGathered(ending: Bool) {
        let sent = writeLock.withLockIfAvailable { _ -> Bool in
            sendPendingReplies()
            return true
        }
        if sent != nil {
            gatheredFlushes.add(1, ordering: .relaxed)
            if ending { flushReplies() }
        } else if ending {
            wakeReplyWriter()
        }
    }

    /// Ends the reader's run of message frames, writing what it queued.
    func endReaderBatch() {
        let batching = state.withLock { state -> Bool in
            defer { state.readerBatching = false }
            return state.readerBatching
        }
        if batching {
            readerFlushes.add(1, ordering: .relaxed)
            flushFromReader()
        }
    }

    /// Writes what is queued, from the reading thread, as far as the socket takes it at once; the
    /// rest stays queued for the reply writer. While another thread holds the socket, that writer
    /// sends the queue. `false` when the connection is gone.
    @discardableResult
    func flushFromReader() -> Bool {
        let written = writeLock.withLockIfAvailable { _ -> Bool in
            let fd = state.withLock { $0.fd }
            guard fd >= 0 else { return false }
            let bytes = pendingReplies.withLock { Self.joined($0.takeAll()) }
            guard !bytes.isEmpty else { return true }
            writes.add(1, ordering: .relaxed)
            guard let n = SocketIO.writeAvailable(fd, bytes) else {
                shutdown(fd, Int32(SHUT_RDWR))
                return false
            }
            // NB: the rest goes ahead of anything queued meanwhile: the peer must read each
            // frame's bytes in one piece.
            if n < bytes.count { pendingReplies.withLock { $0.prepend(Array(bytes[n...])) } }
            return true
        }
        guard let written else {
            // NB: the thread holding the socket sends the queue once it lets go (every writer
            // does); the reply writer is the backstop.
            wakeReplyWriter()
            return state.withLock { $0.fd >= 0 }
        }
        // NB: the rest of a partial write, or frames others queued while this thread held the
        // socket (they left them to it), go to the reply writer: this thread never waits.
        if pendingReplies.withLock({ !$0.isEmpty }) { wakeReplyWriter() }
        return written
    }

    /// Writes `frame` from the reading thread, which never waits: behind whatever is queued, as far
    /// as the socket takes it at once (``flushFromReader()``); the rest, or all of it while another
    /// writer holds the socket, stays queued. `false` when not connected.
    ///
    /// NB: a reader blocked on a full socket would stop reading, and two readers blocked on each
    /// other's full sockets would deadlock; a delegate may send from within a callback on this thread.
    func writeFromReader(_ frame: [UInt8]) -> Bool {
        let queued = state.withLock { state in state.fd >= 0 && queueFromReader(frame, fd: state.fd) != nil }
        return queued && flushFromReader()
    }

    /// Queues a short control frame (an acknowledgement, refusal or cancel) for the connection's
    /// reply writer, or the next writer to finish, to send; never writes on the calling thread.
    ///
    /// NB: the reader never writes: a reader blocked on a full socket would stop reading, and two
    /// readers blocked on each other's full sockets would deadlock. Nor does a caller cancelling a
    /// file wait, whose sender may be the writer blocked.
    func reply(_ kind: Kind, _ body: [UInt8]) {
        pendingReplies.withLock { $0.append(Self.frame(kind, body)) }
        wakeReplyWriter()
    }

    func wakeReplyWriter() {
        replySignal.lock()
        replySignal.broadcast()
        replySignal.unlock()
    }

    /// The reply writer of connection `generation`: sends queued control frames until the connection ends.
    func sendReplies(generation: UInt64) {
        func isLive() -> Bool { state.withLock { $0.generation == generation && $0.fd >= 0 && !$0.stopped } }
        while true {
            replySignal.lock()
            var live = isLive()
            // NB: nor while the reader is in a run of message frames (its end sends the queue), unless
            // the rest of a frame waits there for a writer that may block.
            while live && !queueIsDue()
                && !state.withLock({ $0.userInfoFlushRequested || $0.contextFlushRequested })
            {
                replySignal.wait()
                live = isLive()
            }
            replySignal.unlock()
            guard live else { return }
            let (userInfo, context) = state.withLock { state in
                defer {
                    state.userInfoFlushRequested = false
                    state.contextFlushRequested = false
                }
                return (state.userInfoFlushRequested, state.contextFlushRequested ? state.sentContext : nil)
            }
            writeLock.withLock { _ in
                sendPendingReplies()
                // NB: the context is read under the state lock after the flag, so the latest goes out.
                if let context {
                    let fd = state.withLock { $0.fd }
                    if fd >= 0 && !SocketIO.writeAll(fd, Self.frame(.context, [UInt8](context))) {
                        shutdown(fd, Int32(SHUT_RDWR))
                    }
                }
            }
            if userInfo { flushUserInfo() }
        }
    }

    /// Sends every queued frame, in one write; the caller holds the write lock.
    func sendPendingReplies() {
        let frames = pendingReplies.withLock { $0.takeAll() }
        let fd = state.withLock { $0.fd }
        guard fd >= 0, !frames.isEmpty else { return }
        if !writeAll(fd, Self.joined(frames)) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Whether the queue is due (``PendingFrames/isDue(batching:)``).
    ///
    /// NB: the state lock, then the queue's, never nested: elsewhere the queue's lock is taken
    /// inside the state lock.
    func queueIsDue() -> Bool {
        let batching = state.withLock { $0.isBatching }
        return pendingReplies.withLock { $0.isDue(batching: batching) }
    }

    /// Sends queued replies if the write lock is free (a writer that is not the reader calls this
    /// after its own frame, saving the reply writer a wake-up); not while the reader is in a run of
    /// message frames, whose end sends the queue with the reader's answers in one write.
    func flushReplies() {
        while queueIsDue() {
            let flushed = writeLock.withLockIfAvailable { _ -> Bool in
                sendPendingReplies()
                return true
            }
            if flushed == nil { return }
        }
    }
}
