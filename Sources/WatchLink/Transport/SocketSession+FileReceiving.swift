import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receiving files over the socket, and keeping interrupted ones for a resume (the protocol is
/// described in `SocketSession+Files.swift`): a file is assembled as `files-incoming/<id>.partial`
/// beside `<id>.descriptor`, the descriptor it came with.
extension SocketSession {
    /// One file being received on the current connection.
    struct Incoming {
        var transfer: FileTransfer
        var fd: Int32
        var written: Int64
    }

    /// Most interrupted files kept for resuming; the least recently written goes first.
    static let maximumSuspendedFiles = 16
    /// Most bytes of interrupted files kept for resuming.
    static let maximumSuspendedBytes: Int64 = 256 << 20
    func partialPath(_ id: UUID) -> String { incomingDirectory + "/" + id.uuidString + ".partial" }
    func descriptorPath(_ id: UUID) -> String { incomingDirectory + "/" + id.uuidString + ".descriptor" }

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
        var kept: [(id: UUID, written: Date, size: Int64)] = keptIDs(in: incoming).subtracting(active).map { id in
            let attributes = try? FileManager.default.attributesOfItem(atPath: incoming + "/" + id.uuidString + ".partial")
            return (id, (attributes?[.modificationDate] as? Date) ?? .distantPast, (attributes?[.size] as? Int64) ?? 0)
        }
        kept.sort { $0.written < $1.written }
        var bytes = kept.reduce(0) { $0 + $1.size }
        while let oldest = kept.first, kept.count + room > maximumSuspendedFiles || bytes > maximumSuspendedBytes {
            kept.removeFirst()
            bytes -= oldest.size
            discardPartial(oldest.id, in: incoming)
        }
    }

    /// The transfers with a kept partial in `incoming` (named by their descriptor).
    static func keptIDs(in incoming: String) -> Set<UUID> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []
        return Set(names.lazy.filter { $0.hasSuffix(".descriptor") }.compactMap { UUID(uuidString: String($0.dropLast(11))) })
    }

    /// Deletes the kept partial of `id` in `incoming` and its descriptor.
    static func discardPartial(_ id: UUID, in incoming: String) {
        unlink(incoming + "/" + id.uuidString + ".partial")
        unlink(incoming + "/" + id.uuidString + ".descriptor")
    }

    func beginIncoming(_ id: UUID, _ descriptor: Data) {
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
        for id in Self.keptIDs(in: incomingDirectory).subtracting(listed).subtracting(active) { discardPartial(id) }
    }

    func appendIncoming(_ id: UUID, _ chunk: ArraySlice<UInt8>) {
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

    func endIncoming(_ id: UUID) {
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
        Self.discardPartial(id, in: incomingDirectory)
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
    func reject(_ id: UUID?, _ error: WatchLinkError) {
        callback { $0.sessionDidRejectFile(error) }
        if let id {
            let body = Self.bytes(of: id) + [UInt8]((try? JSONEncoder().encode(error)) ?? Data())
            reply(.fileRefused, body)
        }
    }
}
