public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File transfer over the socket: the sender copies the file into `files-outgoing/` and lists it in
/// `files-queue.json` (both synced) before `transferFile` returns, then streams it on a thread of
/// its own: `fileBegin` (id + descriptor), then, once the receiver answers `fileResume` with the
/// offset to start from, `fileChunk`s of 64 KiB and `fileEnd`. The receiver assembles it under
/// `files-incoming/`, checks descriptor and size, hands it to its delegate, deletes it, and
/// acknowledges; an unacknowledged file is sent again after a reconnect or restart.
///
/// **Resume.** An interrupted file is not sent again from its first byte: the receiver keeps what
/// it had (`<id>.partial`, synced when the connection ends, next to `<id>.descriptor`, the
/// descriptor it came with) across reconnects and restarts, and answers the next `fileBegin` of the
/// same transfer with the partial's length. A partial whose descriptor differs, or that is longer
/// than the file, is started again from zero. At every connection the sender lists the files it
/// still means to send (`fileOutstanding`); the receiver deletes partials of any other file, and
/// keeps at most ``maximumSuspendedFiles`` of them, ``maximumSuspendedBytes`` in all, in any case
/// (the least recently written go first).
///
/// The receiver answers every `fileBegin`: `fileResume`, `fileAck` (delivered already), `fileRefused`
/// with the error, which finishes the transfer, or `fileDeferred` when it cannot take the file now
/// (a local failure, too many files at once), which makes the sender skip it until the next connection.
extension SocketSession {
    /// The outgoing file queue as persisted.
    struct FileQueue: Codable { var items: [FileTransfer] }

    static let fileChunkSize = 65_536
    /// Most files assembled at once; a sender streams one at a time.
    static let maximumIncomingFiles = 4
    /// Most ids a `fileOutstanding` frame lists (16 bytes each, well inside a frame).
    static let maximumOutstandingListed = 8_192

    /// What the file sender learns after `fileBegin`.
    enum ResumeAnswer: Equatable {
        /// Send from this byte.
        case offset(Int64)
        /// The transfer left the queue meanwhile (acknowledged, refused or cancelled).
        case finished
        /// The receiver cannot take it on this connection.
        case deferred
        /// The connection ended.
        case disconnected
    }

    var fileQueuePath: String { directory + "/files-queue.json" }
    var outgoingDirectory: String { directory + "/files-outgoing" }
    var incomingDirectory: String { directory + "/files-incoming" }

    func outgoingPath(_ id: UUID) -> String { outgoingDirectory + "/" + id.uuidString }

    /// Loads the persisted file queue and clears what a crash left behind: staging of received
    /// files, and outgoing copies no queue entry refers to.
    static func loadFiles(directory: String) throws(WatchLinkError) -> FileQueue {
        let manager = FileManager.default
        let queuePath = directory + "/files-queue.json"
        var queue = FileQueue(items: [])
        // NB: only a queue that is not there is empty: one there but unreadable is an error, since
        // read as empty it would delete every queued file's copy below.
        if let bytes = try FileStore.readIfPresent(queuePath) {
            do { queue = try JSONDecoder().decode(FileQueue.self, from: Data(bytes)) } catch {
                throw WatchLinkError(.storageFailed, "unreadable file-transfer queue", details: ["path": queuePath])
            }
        }
        keepOnlySuspendedPartials(in: directory + "/files-incoming")
        trimSuspended(in: directory + "/files-incoming", active: [], room: 0)
        do {
            try manager.createDirectory(atPath: directory + "/files-incoming", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: directory + "/files-outgoing", withIntermediateDirectories: true)
        } catch {
            throw WatchLinkError(.storageFailed, "cannot create file-transfer directories", details: ["path": directory])
        }
        let spooled = Set((try? manager.contentsOfDirectory(atPath: directory + "/files-outgoing")) ?? [])
        queue.items.removeAll { !spooled.contains($0.id.uuidString) }
        let listed = Set(queue.items.map(\.id.uuidString))
        for name in spooled where !listed.contains(name) {
            try? manager.removeItem(atPath: directory + "/files-outgoing/" + name)
        }
        return queue
    }

    /// Copies the file into the outgoing directory, persists the queue, then wakes the sender.
    public func transferFile(_ url: URL, metadata: [String: String]) throws(WatchLinkError) -> FileTransfer {
        guard state.withLock({ $0.activated }) else { throw WatchLinkError(.notActivated, "session not activated") }
        let id = UUID()
        let transfer = try FileTransfer.copy(url, metadata: metadata, id: id, to: outgoingPath(id))
        state.withLock { $0.files.items.append(transfer) }
        do { try persistFiles() } catch {
            state.withLock { $0.files.items.removeAll { $0.id == id } }
            unlink(outgoingPath(id))
            throw error
        }
        wakeFileSender()
        return transfer
    }

    /// File transfers not yet acknowledged, oldest first.
    public var outstandingFileTransfers: [FileTransfer] { state.withLock { $0.files.items } }

    /// Bytes of the file the counterpart has: where the current attempt resumed plus what it has
    /// written to the socket since; `nil` once acknowledged, cancelled or refused.
    public func progress(ofFileTransfer id: UUID) -> FileTransferProgress? {
        state.withLock { state in
            state.files.items.first { $0.id == id }.map {
                FileTransferProgress(completedBytes: state.fileProgress[id] ?? 0, totalBytes: $0.size)
            }
        }
    }

    /// Removes the transfer from the queue, tells the counterpart to drop what it has, and reports `cancelled`.
    ///
    /// Never waits for the socket: the cancel is queued for the connection's reply writer (the
    /// file sender may be blocked on a full socket until the counterpart reads).
    public func cancelFileTransfer(_ id: UUID) {
        let error = WatchLinkError(.cancelled, "file transfer cancelled", details: ["transferID": id.uuidString])
        guard let transfer = finishOutgoing(id) else { return }
        reply(.fileCancel, Self.bytes(of: id))
        callback { $0.sessionDidFinishFileTransfer(transfer, error: error) }
    }

    /// Takes `id` off the queue and deletes its copy; `nil` if it was not queued.
    func finishOutgoing(_ id: UUID) -> FileTransfer? {
        let removed = state.withLock { state -> FileTransfer? in
            guard let index = state.files.items.firstIndex(where: { $0.id == id }) else { return nil }
            state.fileProgress[id] = nil
            return state.files.items.remove(at: index)
        }
        guard let removed else { return nil }
        try? persistFiles()
        unlink(outgoingPath(id))
        wakeFileSender()
        return removed
    }

    func persistFiles() throws(WatchLinkError) {
        try persistLock.withLock { _ throws(WatchLinkError) in
            let queue = state.withLock { $0.files }
            let data = (try? WireCodec.makeEncoder().encode(queue)) ?? Data()
            try SocketIO.writeAtomically(data, to: fileQueuePath)
        }
    }

    func wakeFileSender() {
        fileSignal.lock()
        fileSignal.broadcast()
        fileSignal.unlock()
    }

    // MARK: Sending

    /// Streams every queued file not yet sent on connection `generation`, until that connection ends.
    func sendFiles(generation: UInt64) {
        var sent: Set<UUID> = []
        while true {
            fileSignal.lock()
            var next: FileTransfer?
            while next == nil {
                let (live, item) = state.withLock { state in
                    (state.generation == generation && state.fd >= 0, state.files.items.first { !sent.contains($0.id) })
                }
                guard live else {
                    fileSignal.unlock()
                    return
                }
                if let item { next = item } else { fileSignal.wait() }
            }
            fileSignal.unlock()
            guard let transfer = next, send(transfer, generation: generation) else { return }
            sent.insert(transfer.id)
        }
    }

    /// Sends one file; `false` if the connection ended.
    func send(_ transfer: FileTransfer, generation: UInt64) -> Bool {
        let id = Self.bytes(of: transfer.id)
        let source = systemOpen(outgoingPath(transfer.id), O_RDONLY)
        // NB: the copy is gone only if the transfer was cancelled or finished meanwhile.
        guard source >= 0 else { return true }
        defer { close(source) }
        guard write(.fileBegin, id + [UInt8](transfer.encoded()), generation: generation) else { return false }
        let start: Int64
        switch awaitResume(transfer.id, generation: generation) {
        case .disconnected: return false
        case .deferred: return true
        case .finished:
            // NB: cancelled while the begin was under way: the receiver may have opened it meanwhile.
            return write(.fileCancel, id, generation: generation)
        case .offset(let offset):
            guard offset >= 0, offset <= transfer.size, lseek(source, off_t(offset), SEEK_SET) == off_t(offset) else {
                // NB: an offset no file of this size has; the receiver drops its partial and the
                // file starts again from zero on the next connection.
                return write(.fileCancel, id, generation: generation)
            }
            start = offset
        }
        var sentBytes = start
        recordProgress(transfer.id, start)
        do throws(WatchLinkError) {
            try FileTransfer.forEachChunk(source, path: outgoingPath(transfer.id)) { (chunk) throws(WatchLinkError) in
                guard state.withLock({ $0.files.items.contains { $0.id == transfer.id } }) else {
                    throw WatchLinkError(.cancelled, "file transfer cancelled")
                }
                guard write(.fileChunk, id + chunk, generation: generation) else {
                    throw WatchLinkError(.notReachable, "connection ended")
                }
                sentBytes += Int64(chunk.count)
                recordProgress(transfer.id, sentBytes)
            }
        } catch {
            if error.code == .notReachable { return false }
            return write(.fileCancel, id, generation: generation)
        }
        return write(.fileEnd, id, generation: generation)
    }

    /// Records the progress of `id`, unless it left the queue meanwhile.
    private func recordProgress(_ id: UUID, _ bytes: Int64) {
        state.withLock { state in
            guard state.files.items.contains(where: { $0.id == id }) else { return }
            state.fileProgress[id] = bytes
        }
    }

    /// Waits for the receiver's answer to the `fileBegin` of `id` on connection `generation`.
    func awaitResume(_ id: UUID, generation: UInt64) -> ResumeAnswer {
        fileSignal.lock()
        defer { fileSignal.unlock() }
        while true {
            let answer = state.withLock { state -> ResumeAnswer? in
                guard state.generation == generation, state.fd >= 0 else { return .disconnected }
                guard state.files.items.contains(where: { $0.id == id }) else { return .finished }
                return state.resumeOffsets.removeValue(forKey: id).map { $0 < 0 ? .deferred : .offset($0) }
            }
            if let answer { return answer }
            fileSignal.wait()
        }
    }

    // MARK: Receiving

    func handleFile(_ kind: Kind, _ body: [UInt8]) {
        guard body.count >= 16 else {
            reject(nil, WatchLinkError(.invalidEnvelope, "file frame shorter than its id", details: ["field": "id"]))
            return
        }
        let id = UUID.fromBytes(Array(body[0..<16]))
        let rest = body[16...]
        switch kind {
        case .fileBegin: beginIncoming(id, Data(rest))
        case .fileChunk: appendIncoming(id, rest)
        case .fileEnd: endIncoming(id)
        case .fileCancel: dropIncoming(id)
        case .fileAck:
            guard let transfer = finishOutgoing(id) else { return }
            callback { $0.sessionDidFinishFileTransfer(transfer, error: nil) }
        case .fileResume, .fileDeferred:
            guard kind == .fileDeferred || rest.count == 8 else { return }
            // NB: a deferral is kept as a negative offset, which no resume can carry.
            let offset = kind == .fileDeferred ? -1 : Int64(bitPattern: rest.reduce(0) { $0 << 8 | UInt64($1) })
            let queued = state.withLock { state -> Bool in
                guard state.files.items.contains(where: { $0.id == id }) else { return false }
                state.resumeOffsets[id] = offset
                return true
            }
            if queued { wakeFileSender() }
        case .fileRefused:
            let error =
                (try? JSONDecoder().decode(WatchLinkError.self, from: Data(rest)))
                ?? WatchLinkError(.transportFailed, "the counterpart refused the file")
            guard let transfer = finishOutgoing(id) else { return }
            callback { $0.sessionDidFinishFileTransfer(transfer, error: error) }
        default: break
        }
    }

    static func bytes(of id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }
}
