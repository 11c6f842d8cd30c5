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
    /// One file being received on the current connection.
    struct Incoming {
        var transfer: FileTransfer
        var fd: Int32
        var written: Int64
    }

    /// The outgoing file queue as persisted.
    struct FileQueue: Codable { var items: [FileTransfer] }

    static let fileChunkSize = 65_536
    /// Most files assembled at once; a sender streams one at a time.
    static let maximumIncomingFiles = 4
    /// Most interrupted files kept for resuming; the least recently written goes first.
    static let maximumSuspendedFiles = 16
    /// Most bytes of interrupted files kept for resuming.
    static let maximumSuspendedBytes: Int64 = 256 << 20
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
    func partialPath(_ id: UUID) -> String { incomingDirectory + "/" + id.uuidString + ".partial" }
    func descriptorPath(_ id: UUID) -> String { incomingDirectory + "/" + id.uuidString + ".descriptor" }

    /// Loads the persisted file queue and clears what a crash left behind: staging of received
    /// files, and outgoing copies no queue entry refers to.
    static func loadFiles(directory: String) throws(WatchLinkError) -> FileQueue {
        let manager = FileManager.default
        let queuePath = directory + "/files-queue.json"
        var queue = FileQueue(items: [])
        if let data = manager.contents(atPath: queuePath) {
            do { queue = try JSONDecoder().decode(FileQueue.self, from: data) } catch {
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

    /// Removes from `incoming` everything but interrupted files kept whole with their descriptor:
    /// files being delivered when the process stopped, and a partial or descriptor without the other.
    static func keepOnlySuspendedPartials(in incoming: String) {
        let manager = FileManager.default
        let names = Set((try? manager.contentsOfDirectory(atPath: incoming)) ?? [])
        for name in names {
            let paired =
                (name.hasSuffix(".partial") && names.contains(name.dropLast(8) + ".descriptor"))
                || (name.hasSuffix(".descriptor") && names.contains(name.dropLast(11) + ".partial"))
            if !paired { try? manager.removeItem(atPath: incoming + "/" + name) }
        }
    }

    /// Deletes the least recently written kept partials (other than `active`) until `room` more fit
    /// under ``maximumSuspendedFiles`` and ``maximumSuspendedBytes``.
    static func trimSuspended(in incoming: String, active: Set<UUID>, room: Int) {
        let manager = FileManager.default
        var kept: [(id: UUID, written: Date, size: Int64)] = []
        for name in (try? manager.contentsOfDirectory(atPath: incoming)) ?? [] where name.hasSuffix(".partial") {
            guard let id = UUID(uuidString: String(name.dropLast(8))), !active.contains(id) else { continue }
            let attributes = try? manager.attributesOfItem(atPath: incoming + "/" + name)
            kept.append(
                (id, (attributes?[.modificationDate] as? Date) ?? .distantPast, (attributes?[.size] as? Int64) ?? 0))
        }
        kept.sort { $0.written < $1.written }
        var bytes = kept.reduce(0) { $0 + $1.size }
        while let oldest = kept.first, kept.count + room > maximumSuspendedFiles || bytes > maximumSuspendedBytes {
            kept.removeFirst()
            bytes -= oldest.size
            unlink(incoming + "/" + oldest.id.uuidString + ".partial")
            unlink(incoming + "/" + oldest.id.uuidString + ".descriptor")
        }
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
    public func cancelFileTransfer(_ id: UUID) {
        let error = WatchLinkError(.cancelled, "file transfer cancelled", details: ["transferID": id.uuidString])
        guard let transfer = finishOutgoing(id) else { return }
        _ = write(.fileCancel, Self.bytes(of: id))
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

    private func beginIncoming(_ id: UUID, _ descriptor: Data) {
        // NB: a second begin on this connection resumes from what the first one wrote.
        suspendIncoming(id)
        let transfer: FileTransfer
        do { transfer = try FileTransfer.decodeDescriptor(descriptor) } catch {
            discardPartial(id)
            reject(id, error)
            return
        }
        guard transfer.id == id else {
            discardPartial(id)
            reject(id, WatchLinkError(.invalidEnvelope, "file descriptor id differs from the frame's", details: ["field": "id"]))
            return
        }
        if state.withLock({ $0.deliveredFiles.contains(id) }) {
            // NB: delivered before our acknowledgement was lost; acknowledge again and ignore the bytes.
            discardPartial(id)
            reply(.fileAck, Self.bytes(of: id))
            return
        }
        guard state.withLock({ $0.incoming.count < Self.maximumIncomingFiles }) else {
            postpone(id, WatchLinkError(.transportFailed, "too many files in progress", details: ["field": "id"]))
            return
        }
        var offset: Int64 = 0
        var fd = resumablePartial(id, descriptor: descriptor, size: transfer.size, offset: &offset)
        if fd < 0 {
            discardPartial(id)
            makeRoomForPartial()
            fd = systemOpen(partialPath(id), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else {
                postpone(id, FileStore.failure("open", incomingDirectory))
                return
            }
            do { try SocketIO.writeAtomically(descriptor, to: descriptorPath(id)) } catch {
                close(fd)
                discardPartial(id)
                postpone(id, error)
                return
            }
        }
        state.withLock { $0.incoming[id] = Incoming(transfer: transfer, fd: fd, written: offset) }
        let position = UInt64(bitPattern: offset)
        reply(.fileResume, Self.bytes(of: id) + (0..<8).map { UInt8(truncatingIfNeeded: position >> (56 - 8 * UInt64($0))) })
    }

    /// Opens the kept partial of `id` for appending if it came with the same descriptor and is no
    /// longer than the file; its length goes to `offset`. `-1` if there is none to resume.
    private func resumablePartial(_ id: UUID, descriptor: Data, size: Int64, offset: inout Int64) -> Int32 {
        guard FileManager.default.contents(atPath: descriptorPath(id)) == descriptor else { return -1 }
        let fd = systemOpen(partialPath(id), O_WRONLY, 0)
        guard fd >= 0 else { return -1 }
        let end = lseek(fd, 0, SEEK_END)
        guard end >= 0, Int64(end) <= size else {
            close(fd)
            return -1
        }
        offset = Int64(end)
        return fd
    }

    /// Cannot take `id` now (a local failure): reported, and the sender skips it until the next connection.
    private func postpone(_ id: UUID, _ error: WatchLinkError) {
        reject(nil, error)
        reply(.fileDeferred, Self.bytes(of: id))
    }

    /// Deletes the least recently written kept partials until a new one fits.
    private func makeRoomForPartial() {
        Self.trimSuspended(in: incomingDirectory, active: state.withLock { Set($0.incoming.keys) }, room: 1)
    }

    /// The counterpart's list of files it still means to send: partials of any other file go.
    func pruneSuspended(keeping body: [UInt8]) {
        guard body.count % 16 == 0 else {
            reject(nil, WatchLinkError(.invalidEnvelope, "outstanding-file list is not whole ids", details: ["field": "ids"]))
            return
        }
        let listed = Set(stride(from: 0, to: body.count, by: 16).map { UUID.fromBytes(Array(body[$0..<$0 + 16])) })
        let active = state.withLock { Set($0.incoming.keys) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incomingDirectory)) ?? []
        where name.hasSuffix(".descriptor") {
            guard let id = UUID(uuidString: String(name.dropLast(11))), !listed.contains(id), !active.contains(id) else {
                continue
            }
            discardPartial(id)
        }
    }

    private func appendIncoming(_ id: UUID, _ chunk: ArraySlice<UInt8>) {
        guard let incoming = state.withLock({ $0.incoming[id] }) else { return }
        guard incoming.written + Int64(chunk.count) <= incoming.transfer.size else {
            dropIncoming(id)
            reject(id, WatchLinkError(.invalidEnvelope, "more bytes than the declared size", details: ["field": "size"]))
            return
        }
        guard FileStore.writeAll(incoming.fd, Array(chunk)) else {
            dropIncoming(id)
            reject(nil, FileStore.failure("write", incomingDirectory))
            return
        }
        state.withLock { $0.incoming[id]?.written += Int64(chunk.count) }
    }

    private func endIncoming(_ id: UUID) {
        guard let incoming = state.withLock({ $0.incoming.removeValue(forKey: id) }) else { return }
        close(incoming.fd)
        let partial = partialPath(id)
        guard incoming.written == incoming.transfer.size else {
            discardPartial(id)
            reject(
                id,
                WatchLinkError(
                    .invalidEnvelope, "received \(incoming.written) of \(incoming.transfer.size) bytes",
                    details: ["field": "size"]))
            return
        }
        let folder = incomingDirectory + "/" + id.uuidString
        let path = folder + "/" + incoming.transfer.fileName
        defer {
            discardPartial(id)
            try? FileManager.default.removeItem(atPath: folder)
        }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST, rename(partial, path) == 0 else { return }
        // NB: nothing is left to resume; a file delivered again starts from zero.
        unlink(descriptorPath(id))
        let file = ReceivedFile(transfer: incoming.transfer, url: URL(fileURLWithPath: path))
        guard let delegate = state.withLock({ $0.delegate }) else { return }
        let accepted = callbackLock.withLock { _ in (try? delegate.sessionDidReceiveFile(file)) != nil }
        // NB: a refusal is not acknowledged, so the sender tries again on the next connection.
        guard accepted else { return }
        state.withLock { _ = $0.deliveredFiles.insert(id) }
        reply(.fileAck, Self.bytes(of: id))
    }

    /// Drops a file being received, and whatever of it was kept (cancelled or refused).
    func dropIncoming(_ id: UUID) {
        if let incoming = state.withLock({ $0.incoming.removeValue(forKey: id) }) { close(incoming.fd) }
        discardPartial(id)
    }

    /// Deletes the kept partial of `id` and its descriptor.
    func discardPartial(_ id: UUID) {
        unlink(partialPath(id))
        unlink(descriptorPath(id))
    }

    /// Stops receiving `id` on this connection, keeping what arrived (synced) for a resume.
    func suspendIncoming(_ id: UUID) {
        guard let incoming = state.withLock({ $0.incoming.removeValue(forKey: id) }) else { return }
        _ = FileStore.syncData(incoming.fd)
        close(incoming.fd)
    }

    /// Suspends every partly received file (the connection ended); the next connection resumes them.
    func suspendAllIncoming() {
        for id in state.withLock({ Array($0.incoming.keys) }) { suspendIncoming(id) }
        Self.trimSuspended(in: incomingDirectory, active: [], room: 0)
    }

    /// Refuses an incoming file and tells the delegate. With an `id` the refusal is final: the sender
    /// finishes the transfer with `error`. Without one (a local failure, or no id to name), the
    /// file is simply not acknowledged and comes again on the next connection.
    private func reject(_ id: UUID?, _ error: WatchLinkError) {
        callback { $0.sessionDidRejectFile(error) }
        if let id {
            let body = Self.bytes(of: id) + [UInt8]((try? JSONEncoder().encode(error)) ?? Data())
            reply(.fileRefused, body)
        }
    }

    static func bytes(of id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }
}
