public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``WatchSession`` between two processes over a Unix-domain socket.
///
/// Reachable while connected. Queued user info and both application contexts are kept in
/// `directory` (written with `fsync` and an atomic rename) so they survive `kill -9`; queued
/// user info is resent in order after a reconnect until the counterpart acknowledges it. Queued
/// files are copied into `directory` too, and resent until acknowledged (see `SocketSession+Files.swift`).
///
/// A counterpart that stops reading (stopped, or hung) cannot hold a caller: a write that waits on
/// a full socket for longer than `stallTimeout` drops the connection, which is then made again,
/// and what was queued is resent on the new one.
public final class SocketSession: WatchSession, Sendable {
    /// Which end of the socket this process owns.
    public enum Role: Sendable {
        /// Creates the socket and accepts the counterpart.
        case listen
        /// Connects to the counterpart's socket, retrying until it is there.
        case connect
    }

    /// A user-info item: its id in the log, its bytes, and the key it was queued under (not kept on
    /// disk: after a restart a re-send under the key is queued anew).
    struct Queued: Codable {
        var id: UInt64
        var data: Data
        var key: UUID? = nil
    }
    /// The queue file of earlier versions, read once and moved into the user-info log.
    struct QueueFile: Codable { var nextID: UInt64; var items: [Queued] }

    struct State {
        var fd: Int32 = -1
        var listener: Int32 = -1
        var delegate: (any WatchSessionDelegate)?
        var activated = false
        var stopped = false
        /// User info not yet acknowledged, in id order.
        var queue: [Queued] = []
        var lastDeliveredUserInfo: UInt64 = 0
        /// The highest user-info id written on the current connection (see ``flushUserInfo()``).
        var userInfoSent: UInt64 = 0
        /// The highest user-info id written on any connection since this session started: an item
        /// at or below it may have been delivered, so a re-send under its key queues a new item
        /// rather than changing it (the counterpart would take the changed bytes for a resend).
        var userInfoWritten: UInt64 = 0
        /// The highest user-info id the queue file on disk accounts for; nothing above it is sent.
        var userInfoPersisted: UInt64 = 0
        /// The highest user-info id the counterpart acknowledged.
        var acknowledged: UInt64 = 0
        /// Acknowledged user info is gone from memory but not yet recorded in the log.
        var acknowledgedUnsaved = false
        var sentContext: Data?

        var receivedContext: Data?
        /// Counts connections, so a file sender stops writing once its connection is gone.
        var generation: UInt64 = 0
        var files = FileQueue(items: [])
        var fileProgress: [UUID: Int64] = [:]
        /// Where the counterpart asked the file sender to resume each file, on the current connection.
        var resumeOffsets: [UUID: Int64] = [:]
        var incoming: [UUID: Incoming] = [:]
        /// Files this process delivered to its delegate; a redelivery is acknowledged, not delivered.
        var deliveredFiles: Set<UUID> = []
        /// The thread reading the current connection, which never waits to write (see ``writeFromReader(_:)``).
        var reader: pthread_t?
        /// The reader is handling a run of message frames that had all arrived: the messages it
        /// sends meanwhile are queued (in ``pendingReplies``, which every writer sends ahead of its
        /// own frame, so no later message overtakes them) and written together when the run ends
        /// (see ``serve(_:)``).
        var readerBatching = false
        /// A thread other than the reader gathering the messages it sends for one write (see
        /// ``sendingMessagesTogether(_:)``): they are queued in ``pendingReplies`` as the reader's
        /// are in its run, and the queue is not due meanwhile.
        var gatherer: pthread_t?

        /// Whether the queue waits for a batch to end: the reader's run, or a gatherer's.
        var isBatching: Bool { readerBatching || gatherer != nil }
        /// The reader queued user info or a context, which the reply writer is to send.
        var userInfoFlushRequested = false
        var contextFlushRequested = false

        /// Where the item with `id` is in ``queue`` (kept in id order), if it is still there.
        func queuedIndex(of id: UInt64) -> Int? {
            var (low, high) = (queue.startIndex, queue.endIndex)
            while low < high {
                let middle = (low + high) / 2
                if queue[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return low < queue.endIndex && queue[low].id == id ? low : nil
        }
    }

    enum Kind: UInt8 {
        case message = 0, userInfo = 1, userInfoAck = 2, context = 3
        case fileBegin = 4, fileChunk = 5, fileEnd = 6, fileAck = 7, fileCancel = 8, fileRefused = 9
        case fileResume = 10, fileOutstanding = 11, fileDeferred = 12
    }

    let socketPath: String
    let role: Role
    let directory: String
    /// How long a write may wait on a full socket before the connection is dropped.
    let stallTimeout: Duration
    let state: Mutex<State>
    let writeLock = Mutex(())
    let callbackLock = Mutex(())
    /// Serialises file-queue writes.
    let persistLock = Mutex(())
    /// The user-info log: callers' threads append, the socket thread records acknowledgements.
    let userInfoLog: Mutex<UserInfoLog>
    /// Control frames waiting for the write lock (see ``reply(_:_:)``).
    let pendingReplies = Mutex(PendingFrames())
    /// The writes of live messages and control frames to the socket so far (how well they are batched).
    let writes = Atomic<Int>(0)
    /// The times the reading thread sent on what it queued in a run of message frames: once the
    /// queue reached ``maximumReaderBatch``, and at the run's end. (It writes them itself, or the
    /// reply writer does when another writer holds the socket, and may then join several into one
    /// write: ``writes`` can be fewer.)
    let readerFlushes = Atomic<Int>(0)
    /// The times a thread gathering its messages (``sendingMessagesTogether(_:)``) wrote what was
    /// queued itself: on reaching ``maximumReaderBatch`` and when it stopped gathering, each time
    /// the socket was free.
    let gatheredFlushes = Atomic<Int>(0)
    /// Wakes the connection's reply writer when a control frame is queued or the connection ends.
    let replySignal = NSCondition()
    /// Wakes the file sender when a file is queued or cancelled, or the connection ends.
    let fileSignal = NSCondition()

    /// Creates a session; persisted queues and contexts are loaded from `directory`.
    ///
    /// - Parameter stallTimeout: how long a write may wait for a counterpart that does not read
    ///   before the connection is dropped and made again (at least 100 ms). A counterpart's
    ///   reader busy longer than this (storing a large received file on a slow disk) also drops
    ///   the connection; nothing is lost, the connection is made again.
    public init(
        socketPath: String, role: Role, directory: String, stallTimeout: Duration = .seconds(10)
    ) throws(WatchLinkError) {
        _ = try SocketIO.makeAddress(socketPath)
        guard stallTimeout >= .milliseconds(100) else {
            throw WatchLinkError(
                .invalidArgument, "stallTimeout must be at least 100 ms", details: ["field": "stallTimeout"])
        }
        self.stallTimeout = stallTimeout
        self.socketPath = socketPath
        self.role = role
        self.directory = directory
        var initial = State()
        let (log, items) = try Self.openUserInfoLog(directory: directory)
        initial.queue = items.map { Queued(id: $0.id, data: $0.data) }
        initial.userInfoPersisted = log.nextID - 1
        userInfoLog = Mutex(log)
        initial.sentContext = FileManager.default.contents(atPath: directory + "/context-sent")
        initial.receivedContext = FileManager.default.contents(atPath: directory + "/context-received")
        initial.files = try Self.loadFiles(directory: directory)
        state = Mutex(initial)
    }

    /// `activated` once ``activate(delegate:)`` has been called.
    public var activationState: SessionActivationState { state.withLock { $0.activated ? .activated : .notActivated } }
    /// Whether the socket is connected.
    public var isReachable: Bool { state.withLock { $0.fd >= 0 } }
    /// The last context sent, as persisted.
    public var applicationContext: Data? { state.withLock { $0.sentContext } }
    /// The last context received, as persisted.
    public var receivedApplicationContext: Data? { state.withLock { $0.receivedContext } }
    /// User-info transfers not yet acknowledged by the counterpart.
    public var outstandingUserInfoCount: Int { state.withLock { $0.queue.count } }
    /// The byte ranges of `userinfo.log` that opening the session dropped as damage (empty when the
    /// log was whole).
    public var userInfoLogRecovery: [Range<Int>] { userInfoLog.withLock { $0.lastRecovery } }

    /// Activates and starts connecting in the background.
    public func activate(delegate: any WatchSessionDelegate) {
        state.withLock {
            $0.delegate = delegate
            $0.activated = true
        }
        callback { $0.sessionDidActivate(.activated) }
        let thread = Thread { [self] in self.run() }
        thread.name = "watchlink-socket"
        thread.start()
    }

    /// Stops the connection and the background thread.
    public func invalidate() {
        let (fd, listener) = state.withLock { state -> (Int32, Int32) in
            state.stopped = true
            return (state.fd, state.listener)
        }
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
        wakeFileSender()
        wakeReplyWriter()
    }

    /// Delegates may send from within callbacks: a callback holds no lock a send takes, and the
    /// reading thread never waits to write.
    public var allowsCallsFromCallbacks: Bool { true }

    /// Sends a live message; `not_reachable` unless connected.
    public func sendMessage(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .message)
        let sent: Bool
        let frame = Self.frame(.message, data)
        switch queueIfBatching(frame) {
        case .notReader: sent = write(frame)
        case .outsideRun: sent = writeFromReader(frame)
        case .batched: sent = true
        case .full:
            readerFlushes.add(1, ordering: .relaxed)
            sent = flushFromReader()
        case .gatheredFull:
            flushGathered(ending: false)
            sent = true
        case .notConnected: sent = false
        }
        guard sent else { throw WatchLinkError(.notReachable, "counterpart not connected") }
    }

    /// Persists a user-info transfer, then sends it, after every earlier one, if connected.
    public func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        try enqueueUserInfo(data, key: nil)
    }

    /// Persists and sends a user-info transfer as ``transferUserInfo(_:)`` does, unless an item
    /// queued under `key` has never been written to a counterpart: that item then carries `data`
    /// in its place. The replacement is made in memory; the log holds it only once a compaction
    /// rewrites the queue, so after a restart either copy may go out. Keys are not kept on disk:
    /// after a restart, a re-send queues a new item.
    public func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        let replaced = state.withLock { state -> Bool in
            // NB: the items never written are the queue's tail; only those are looked at.
            var index = state.queue.endIndex
            while index > state.queue.startIndex {
                index -= 1
                guard state.queue[index].id > state.userInfoWritten else { return false }
                if state.queue[index].key == key {
                    state.queue[index].data = data
                    return true
                }
            }
            return false
        }
        if !replaced { try enqueueUserInfo(data, key: key) }
    }

    private func enqueueUserInfo(_ data: Data, key: UUID?) throws(WatchLinkError) {
        // NB: ids are handed out and made durable in one critical section, so every id up to
        // `userInfoPersisted` is on disk and ids reach the queue in order.
        try userInfoLog.withLock { log throws(WatchLinkError) in
            let id = try log.add(data)
            state.withLock { state in
                state.queue.append(Queued(id: id, data: data, key: key))
                state.userInfoPersisted = id
            }
        }
        if isReader {
            state.withLock { $0.userInfoFlushRequested = true }
            wakeReplyWriter()
        } else {
            flushUserInfo()
        }
    }

    /// Persists the context, then sends it if connected.
    public func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .applicationContext)
        try SocketIO.writeAtomically(data, to: directory + "/context-sent")
        state.withLock { $0.sentContext = data }
        if isReader {
            state.withLock { $0.contextFlushRequested = true }
            wakeReplyWriter()
        } else {
            _ = write(.context, [UInt8](data))
        }
    }

    func precheck(_ data: Data, _ channel: SessionChannel) throws(WatchLinkError) {
        guard state.withLock({ $0.activated }) else { throw WatchLinkError(.notActivated, "session not activated") }
        try SessionLimits.check(data.count, on: channel)
    }

    func callback(_ body: (any WatchSessionDelegate) -> Void) {
        guard let delegate = state.withLock({ $0.delegate }) else { return }
        callbackLock.withLock { _ in body(delegate) }
    }
}
