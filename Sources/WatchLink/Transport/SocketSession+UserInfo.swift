import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// User info over the socket: the append-only log that keeps what is queued, the move of an
/// earlier version's queue file into it, sending in id order, and recording acknowledgements.
extension SocketSession {
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
            sendPendingReplies()
            for item in items {
                // NB: marked sent before the write: the counterpart's acknowledgement can be read
                // before the write returns, and one for an id not yet marked would be ignored. A
                // failed write ends the connection, and a new one starts again from nothing sent.
                // The bytes are read in the same critical section: a re-send that replaced them
                // before it goes out, and one after it finds the item written and queues anew.
                let data = state.withLock { state -> Data in
                    state.userInfoSent = item.id
                    state.userInfoWritten = max(state.userInfoWritten, item.id)
                    return state.queuedIndex(of: item.id).map { state.queue[$0].data } ?? item.data
                }
                guard SocketIO.writeAll(fd, Self.frame(.userInfo, Self.userInfoFrame(item.id, data))) else {
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

    /// Records the acknowledgements read so far in the user-info log.
    func saveAcknowledged() {
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

    /// A user-info item arrived: delivered unless it is a resend of one already delivered, and
    /// acknowledged either way.
    func receiveUserInfo(_ body: [UInt8]) {
        guard body.count >= 8 else { return }
        let id = Self.readID(body)
        let fresh = state.withLock { state -> Bool in
            guard id > state.lastDeliveredUserInfo else { return false }
            state.lastDeliveredUserInfo = id
            return true
        }
        if fresh { callback { $0.sessionDidReceive(Data(body[8...]), on: .userInfo) } }
        reply(.userInfoAck, Array(body.prefix(8)))
    }

    /// The counterpart acknowledged every item through an id; `moreToRead` says whether more input
    /// is already buffered (the rest of a burst).
    func receiveAcknowledgement(_ body: [UInt8], from fd: Int32, moreToRead: Bool) {
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
        if changed && !moreToRead && !SocketIO.hasInput(fd) { saveAcknowledged() }
    }
}
