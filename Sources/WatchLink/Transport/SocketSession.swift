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
    struct QueueFile: Codable { var nextID: UInt64; var items: [Queued] }

    struct State {
        var fd: Int32 = -1
        var listener: Int32 = -1
        var delegate: (any WatchSessionDelegate)?
        var activated = false
        var stopped = false
        var queue = QueueFile(nextID: 1, items: [])
        var lastDeliveredUserInfo: UInt64 = 0
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
    /// Serialises queue-file writes: the caller's thread appends, the socket thread removes acked items.
    let persistLock = Mutex(())
    /// Replies from the reading thread waiting for the write lock (see ``reply(_:_:)``).
    let pendingReplies = Mutex<[[UInt8]]>([])
    /// Wakes the file sender when a file is queued or cancelled, or the connection ends.
    let fileSignal = NSCondition()

    /// Creates a session; persisted queues and contexts are loaded from `directory`.
    ///
    /// - Parameter stallTimeout: how long a write may wait for a counterpart that does not read
    ///   before the connection is dropped and made again (at least 1 ms).
    public init(
        socketPath: String, role: Role, directory: String, stallTimeout: Duration = .seconds(10)
    ) throws(WatchLinkError) {
        _ = try SocketIO.makeAddress(socketPath)
        guard stallTimeout >= .milliseconds(1) else {
            throw WatchLinkError(.invalidArgument, "stallTimeout must be at least 1 ms", details: ["field": "stallTimeout"])
        }
        self.stallTimeout = stallTimeout
        self.socketPath = socketPath
        self.role = role
        self.directory = directory
        var initial = State()
        if let data = FileManager.default.contents(atPath: directory + "/userinfo-queue.json") {
            do { initial.queue = try JSONDecoder().decode(QueueFile.self, from: data) } catch {
                throw WatchLinkError(
                    .storageFailed, "unreadable user-info queue", details: ["path": directory + "/userinfo-queue.json"])
            }
        }
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
    public var outstandingUserInfoCount: Int { state.withLock { $0.queue.items.count } }

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
    }

    /// Sends a live message; `not_reachable` unless connected.
    public func sendMessage(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .message)
        guard write(.message, [UInt8](data)) else { throw WatchLinkError(.notReachable, "counterpart not connected") }
    }

    /// Persists a user-info transfer, then sends it if connected.
    public func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        let id = state.withLock { state -> UInt64 in
            let id = state.queue.nextID
            state.queue.nextID += 1
            state.queue.items.append(Queued(id: id, data: data))
            return id
        }
        try persistQueue()
        _ = write(.userInfo, Self.userInfoFrame(id, data))
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

    /// Writes the current queue; one writer at a time, and each writes the latest queue, so an
    /// older snapshot never overwrites a newer one and two writers never share the temporary file.
    private func persistQueue() throws(WatchLinkError) {
        try persistLock.withLock { _ throws(WatchLinkError) in
            let queue = state.withLock { $0.queue }
            let data = (try? WireCodec.makeEncoder().encode(queue)) ?? Data()
            try SocketIO.writeAtomically(data, to: directory + "/userinfo-queue.json")
        }
    }

    static func userInfoFrame(_ id: UInt64, _ data: Data) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: id >> (56 - 8 * UInt64($0))) } + [UInt8](data)
    }

    static func readID(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Writes one frame: 4-byte big-endian length, 1-byte kind, body; with a `generation`, only on that connection.
    func write(_ kind: Kind, _ body: [UInt8], generation: UInt64? = nil) -> Bool {
        let n = UInt32(body.count + 1)
        let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), kind.rawValue] + body
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

    /// Queues a short control frame (an acknowledgement, refusal or cancel) and sends it unless
    /// another write is under way, whose writer then sends it.
    ///
    /// NB: the reader never waits for the write lock: a writer blocked on a full socket waits for
    /// the counterpart's reader, and two readers waiting for their own writers would deadlock.
    /// Nor does a caller cancelling a file, whose sender may be the writer blocked.
    func reply(_ kind: Kind, _ body: [UInt8]) {
        let n = UInt32(body.count + 1)
        let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), kind.rawValue] + body
        pendingReplies.withLock { $0.append(frame) }
        flushReplies()
    }

    /// Sends queued replies if the write lock is free; whoever holds it flushes after releasing it.
    func flushReplies() {
        while pendingReplies.withLock({ !$0.isEmpty }) {
            let flushed = writeLock.withLockIfAvailable { _ -> Bool in
                let frames = pendingReplies.withLock { frames in
                    defer { frames.removeAll() }
                    return frames
                }
                let fd = state.withLock { $0.fd }
                guard fd >= 0 else { return true }
                for frame in frames where !SocketIO.writeAll(fd, frame) {
                    shutdown(fd, Int32(SHUT_RDWR))
                    break
                }
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

    private func serve(_ fd: Int32) {
        SocketIO.setSendTimeout(fd, stallTimeout)
        let (queued, context, generation, files) = state.withLock { state -> ([Queued], Data?, UInt64, [FileTransfer]) in
            state.fd = fd
            state.generation += 1
            state.resumeOffsets.removeAll()
            return (state.queue.items, state.sentContext, state.generation, state.files.items)
        }
        for item in queued { _ = write(.userInfo, Self.userInfoFrame(item.id, item.data)) }
        if let context { _ = write(.context, [UInt8](context)) }
        // NB: a list cut short would make the receiver drop partials of files not listed; send none then.
        if files.count <= Self.maximumOutstandingListed {
            _ = write(.fileOutstanding, files.flatMap { Self.bytes(of: $0.id) })
        }
        let sender = Thread { [self] in self.sendFiles(generation: generation) }
        sender.name = "watchlink-files"
        sender.start()
        callback { $0.sessionReachabilityDidChange(true) }
        while let header = SocketIO.readExactly(fd, 5) {
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length >= 1, length <= SessionLimits.applicationContext + 16 else { break }
            guard let body = length > 1 ? SocketIO.readExactly(fd, length - 1) : [] else { break }
            // NB: a kind a later version added is skipped, not a reason to drop the connection.
            guard let kind = Kind(rawValue: header[4]) else { continue }
            handle(kind, body)
        }
        writeLock.withLock { _ in
            state.withLock { $0.fd = -1 }
            pendingReplies.withLock { $0.removeAll() }
        }
        wakeFileSender()
        suspendAllIncoming()
        close(fd)
        callback { $0.sessionReachabilityDidChange(false) }
    }

    private func handle(_ kind: Kind, _ body: [UInt8]) {
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
                let before = state.queue.items.count
                state.queue.items.removeAll { $0.id <= id }
                return state.queue.items.count != before
            }
            if changed { try? persistQueue() }
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
