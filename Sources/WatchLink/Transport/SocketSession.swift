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

    struct Queued: Codable { var id: UInt64; var data: Data }
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
    let pendingReplies = Mutex<[[UInt8]]>([])
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

    /// Opens the user-info log, first moving a queue file of an earlier version into it.
    static func openUserInfoLog(directory: String) throws(WatchLinkError) -> (UserInfoLog, [UserInfoLog.Item]) {
        let legacyPath = directory + "/userinfo-queue.json"
        let (log, items) = try UserInfoLog.load(path: directory + "/userinfo.log")
        guard let data = try FileStore.readIfPresent(legacyPath) else { return (log, items) }
        // NB: the old file goes only once the log holds all of it (a compaction is a rename, so the
        // log holds all of it or nothing). A log that has ever held anything was written by such a
        // move or after it: the old file is then stale, and moving it again could bring back items
        // the log has since seen acknowledged.
        var queued = items
        if log.nextID == 1 {
            let legacy: QueueFile
            do { legacy = try JSONDecoder().decode(QueueFile.self, from: Data(data)) } catch {
                throw WatchLinkError(
                    .storageFailed, "unreadable user-info queue", details: ["path": legacyPath, "field": "userinfo-queue.json"])
            }
            queued = legacy.items.sorted { $0.id < $1.id }.map { UserInfoLog.Item(id: $0.id, data: $0.data) }
            try log.compact(queued, nextID: legacy.nextID)
        }
        guard unlink(legacyPath) == 0 || errno == ENOENT else { throw FileStore.failure("unlink", legacyPath) }
        FileStore.syncDirectory(of: legacyPath)
        return (log, queued)
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

    /// Sends a live message; `not_reachable` unless connected.
    public func sendMessage(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .message)
        guard write(.message, [UInt8](data)) else { throw WatchLinkError(.notReachable, "counterpart not connected") }
    }

    /// Persists a user-info transfer, then sends it, after every earlier one, if connected.
    public func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        // NB: ids are handed out and made durable in one critical section, so every id up to
        // `userInfoPersisted` is on disk and ids reach the queue in order.
        try userInfoLog.withLock { log throws(WatchLinkError) in
            let id = try log.add(data)
            state.withLock { state in
                state.queue.append(Queued(id: id, data: data))
                state.userInfoPersisted = id
            }
        }
        flushUserInfo()
    }

    /// Persists the context, then sends it if connected.
    public func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .applicationContext)
        try SocketIO.writeAtomically(data, to: directory + "/context-sent")
        state.withLock { $0.sentContext = data }
        _ = write(.context, [UInt8](data))
    }

    private func precheck(_ data: Data, _ channel: SessionChannel) throws(WatchLinkError) {
        guard state.withLock({ $0.activated }) else { throw WatchLinkError(.notActivated, "session not activated") }
        try SessionLimits.check(data.count, on: channel)
    }

    /// Writes the persisted user info not yet written on this connection, in id order.
    ///
    /// NB: whoever holds the write lock sends every such item, so a later item never overtakes an
    /// earlier one — not when two callers race, nor when a caller races the resend of a new
    /// connection. The receiver takes a lower id than one it delivered for a resend, and its
    /// acknowledgements are cumulative: an overtaken item would be acknowledged, never delivered.
    /// Only persisted items go out, so an id a crash could hand out again is never seen.
    func flushUserInfo() {
        writeLock.withLock { _ in
            let (fd, items) = state.withLock { state in
                (state.fd, state.queue.filter { $0.id > state.userInfoSent && $0.id <= state.userInfoPersisted })
            }
            guard fd >= 0 else { return }
            for item in items {
                // NB: marked sent before the write: the counterpart's acknowledgement can be read
                // before the write returns, and one for an id not yet marked would be ignored. A
                // failed write ends the connection, and a new one starts again from nothing sent.
                state.withLock { $0.userInfoSent = item.id }
                guard SocketIO.writeAll(fd, Self.frame(.userInfo, Self.userInfoFrame(item.id, item.data))) else {
                    shutdown(fd, Int32(SHUT_RDWR))
                    return
                }
            }
        }
        flushReplies()
    }

    static func userInfoFrame(_ id: UInt64, _ data: Data) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: id >> (56 - 8 * UInt64($0))) } + [UInt8](data)
    }

    static func readID(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A frame: 4-byte big-endian length, 1-byte kind, body.
    static func frame(_ kind: Kind, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count + 1)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), kind.rawValue] + body
    }

    /// Writes one frame; with a `generation`, only on that connection.
    func write(_ kind: Kind, _ body: [UInt8], generation: UInt64? = nil) -> Bool {
        let frame = Self.frame(kind, body)
        // NB: the descriptor is read under the write lock, which `serve` holds to retire it, so a
        // frame never goes to a closed (and perhaps reused) descriptor.
        let ok = writeLock.withLock { _ in
            let (fd, current) = state.withLock { ($0.fd, $0.generation) }
            guard fd >= 0, generation == nil || generation == current else { return false }
            let ok = SocketIO.writeAll(fd, frame)
            if !ok { shutdown(fd, Int32(SHUT_RDWR)) }
            return ok
        }
        flushReplies()
        return ok
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
            while live && pendingReplies.withLock({ $0.isEmpty }) {
                replySignal.wait()
                live = isLive()
            }
            replySignal.unlock()
            guard live else { return }
            writeLock.withLock { _ in sendPendingReplies() }
        }
    }

    /// Sends every queued control frame; the caller holds the write lock.
    private func sendPendingReplies() {
        let frames = pendingReplies.withLock { frames in
            defer { frames.removeAll() }
            return frames
        }
        let fd = state.withLock { $0.fd }
        guard fd >= 0 else { return }
        for frame in frames where !SocketIO.writeAll(fd, frame) {
            shutdown(fd, Int32(SHUT_RDWR))
            return
        }
    }

    /// Sends queued replies if the write lock is free (a writer that is not the reader calls this
    /// after its own frame, saving the reply writer a wake-up).
    func flushReplies() {
        while pendingReplies.withLock({ !$0.isEmpty }) {
            let flushed = writeLock.withLockIfAvailable { _ -> Bool in
                sendPendingReplies()
                return true
            }
            if flushed == nil { return }
        }
    }

    func callback(_ body: (any WatchSessionDelegate) -> Void) {
        guard let delegate = state.withLock({ $0.delegate }) else { return }
        callbackLock.withLock { _ in body(delegate) }
    }

    /// The background loop: connect or accept, exchange frames, repeat after a disconnect.
    func run() {
        var listener: Int32 = -1
        if role == .listen {
            do { listener = try SocketIO.listen(path: socketPath) } catch { return }
            let fd = listener
            state.withLock { $0.listener = fd }
        }
        defer { if listener >= 0 { close(listener) } }
        while !state.withLock({ $0.stopped }) {
            let fd: Int32
            if role == .listen {
                let accepted = accept(listener, nil, nil)
                guard accepted >= 0 else {
                    if errno != EINTR { usleep(10_000) }
                    continue
                }
                fd = accepted
            } else {
                guard let connected = SocketIO.connect(path: socketPath) else {
                    usleep(20_000)
                    continue
                }
                fd = connected
            }
            serve(fd)
        }
    }

    /// One connection: its reader runs here from the start, while another thread resends what is
    /// queued and then streams files, and a third sends control frames.
    ///
    /// NB: reading begins before anything is resent. With the resend first, two sides with long
    /// queues could each block writing while the other was not yet reading.
    private func serve(_ fd: Int32) {
        SocketIO.setSendTimeout(fd, stallTimeout)
        let generation = writeLock.withLock { _ in
            state.withLock { state -> UInt64 in
                state.fd = fd
                state.generation += 1
                state.userInfoSent = 0
                state.resumeOffsets.removeAll()
                return state.generation
            }
        }
        let sender = Thread { [self] in
            self.resend(generation: generation)
            self.sendFiles(generation: generation)
        }
        sender.name = "watchlink-files"
        sender.start()
        let replier = Thread { [self] in self.sendReplies(generation: generation) }
        replier.name = "watchlink-replies"
        replier.start()
        callback { $0.sessionReachabilityDidChange(true) }
        while let header = SocketIO.readExactly(fd, 5) {
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length >= 1, length <= SessionLimits.applicationContext + 16 else { break }
            guard let body = length > 1 ? SocketIO.readExactly(fd, length - 1) : [] else { break }
            // NB: a kind a later version added is skipped, not a reason to drop the connection.
            guard let kind = Kind(rawValue: header[4]) else { continue }
            handle(kind, body, from: fd)
        }
        writeLock.withLock { _ in
            state.withLock { $0.fd = -1 }
            pendingReplies.withLock { $0.removeAll() }
        }
        saveAcknowledged()
        wakeFileSender()
        wakeReplyWriter()
        suspendAllIncoming()
        close(fd)
        callback { $0.sessionReachabilityDidChange(false) }
    }

    /// Sends, on a new connection, the queued user info, the last context and the list of files
    /// still to send (which precedes every `fileBegin` on the connection: the same thread sends both).
    private func resend(generation: UInt64) {
        flushUserInfo()
        writeLock.withLock { _ in
            // NB: the context is read under the write lock, so a newer one sent meanwhile goes out after it.
            let (fd, current, context, files) = state.withLock { ($0.fd, $0.generation, $0.sentContext, $0.files.items) }
            guard fd >= 0, current == generation else { return }
            var frames: [[UInt8]] = []
            if let context { frames.append(Self.frame(.context, [UInt8](context))) }
            // NB: a list cut short would make the receiver drop partials of files not listed; send none then.
            if files.count <= Self.maximumOutstandingListed {
                frames.append(Self.frame(.fileOutstanding, files.flatMap { Self.bytes(of: $0.id) }))
            }
            for frame in frames where !SocketIO.writeAll(fd, frame) {
                shutdown(fd, Int32(SHUT_RDWR))
                return
            }
        }
        flushReplies()
    }

    /// Records the acknowledgements read so far in the user-info log.
    private func saveAcknowledged() {
        userInfoLog.withLock { log in
            let (unsaved, through, remaining) = state.withLock { state in
                defer { state.acknowledgedUnsaved = false }
                return (state.acknowledgedUnsaved, state.acknowledged, state.queue)
            }
            guard unsaved else { return }
            // NB: an acknowledgement lost to a failed write only means the items are sent again.
            try? log.acknowledge(through: through, remaining: remaining.map { UserInfoLog.Item(id: $0.id, data: $0.data) })
        }
    }

    private func handle(_ kind: Kind, _ body: [UInt8], from fd: Int32) {
        switch kind {
        case .message:
            callback { $0.sessionDidReceive(Data(body), on: .message) }
        case .userInfo:
            guard body.count >= 8 else { return }
            let id = Self.readID(body)
            let fresh = state.withLock { state -> Bool in
                guard id > state.lastDeliveredUserInfo else { return false }
                state.lastDeliveredUserInfo = id
                return true
            }
            if fresh { callback { $0.sessionDidReceive(Data(body[8...]), on: .userInfo) } }
            reply(.userInfoAck, Array(body.prefix(8)))
        case .userInfoAck:
            guard body.count >= 8 else { return }
            let id = Self.readID(body)
            let changed = state.withLock { state -> Bool in
                guard id > state.acknowledged, id <= state.userInfoSent else { return state.acknowledgedUnsaved }
                state.acknowledged = id
                state.queue.removeAll { $0.id <= id }
                state.acknowledgedUnsaved = true
                return true
            }
            // NB: acknowledgements come in bursts; the log records one once the burst has been read
            // (or the connection ends), not one per item. An acknowledged item still queued on disk
            // is at worst sent again after a crash, which a receiver takes as a resend.
            if changed && !SocketIO.hasInput(fd) { saveAcknowledged() }
        case .context:
            let data = Data(body)
            try? SocketIO.writeAtomically(data, to: directory + "/context-received")
            state.withLock { $0.receivedContext = data }
            callback { $0.sessionDidReceive(data, on: .applicationContext) }
        case .fileBegin, .fileChunk, .fileEnd, .fileAck, .fileCancel, .fileRefused, .fileResume, .fileDeferred:
            handleFile(kind, body)
        case .fileOutstanding:
            pruneSuspended(keeping: body)
        }
    }
}
