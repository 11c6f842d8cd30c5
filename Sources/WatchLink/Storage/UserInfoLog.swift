import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The queued user info of a ``SocketSession`` on disk: an append-only log, so queueing an item
/// writes that item alone, however long the queue is.
///
/// Each record is a 4-byte big-endian length, a kind byte, an 8-byte big-endian id, the kind's
/// bytes and a big-endian CRC-32 of everything after the length (the kind byte's top bit says the
/// checksum is there; records of earlier versions have none and are still read). Kinds:
/// - `add`: the item with that id, its bytes after the id;
/// - `acknowledged`: every item up to that id was acknowledged and is gone;
/// - `next`: the next id to hand out (written first by a compaction, which drops the rest).
///
/// A record torn by a crash mid-append (cut short, a checksum that fails on the last record, or
/// a tail of zeros a file system left) is cut off when the log is opened; a failed checksum
/// anywhere else is corruption. An append that fails is cut off at once (and the cut synced), so
/// nothing ever follows a partial record; a log that cannot cut it off refuses further writes
/// with `storage_failed` until it is opened again. Once acknowledged records outweigh live ones
/// (and pass ``compactionThreshold``) the log is rewritten with the live items only (write
/// beside, `fsync`, `rename`, directory `fsync`); a compaction that fails leaves the old file as
/// it was and the acknowledgement is appended instead. Not thread-safe: its owner serialises
/// calls.
final class UserInfoLog {
    /// A queued item.
    struct Item: Equatable {
        var id: UInt64
        var data: Data
    }

    enum Kind: UInt8 {
        case add = 1
        case acknowledged = 2
        case next = 3
    }

    /// The kind byte's flag for a record that ends with its CRC-32.
    static let checked: UInt8 = 0x80
    /// The largest record a valid log holds: an item at the user-info size limit, checksummed.
    static let maxRecordLength = 1 + 8 + SessionLimits.userInfo + 4
    /// Dead bytes (acknowledged items and acknowledgement records) that may pile up before a
    /// compaction, as long as they do not outweigh the live items.
    static let compactionThreshold = 1 << 20

    /// The calls an append makes, replaceable so tests can fail them part way.
    struct IO {
        var write: (Int32, [UInt8]) -> Bool = FileStore.writeAll
        var truncate: (Int32, Int) -> Bool = { ftruncate($0, off_t($1)) == 0 }
    }

    let path: String
    var io = IO()
    private var fd: Int32
    /// Bytes of whole records in the file: where the next record starts.
    private var size: Int
    /// Why the log refuses writes, once the file may hold something other than whole records.
    private var broken: WatchLinkError?
    /// Bytes of the live items' records.
    private var liveBytes = 0
    /// Bytes of every other record.
    private var deadBytes = 0
    /// Record sizes of the live items, by id.
    private var sizes: [UInt64: Int] = [:]
    /// The next id to hand out.
    private(set) var nextID: UInt64
    /// Dead bytes past which the next compaction is tried (raised after one fails).
    private var compactionDue = UserInfoLog.compactionThreshold

    /// Opens (creating if needed) the log at `path` and returns it with the items still queued,
    /// in id order. A torn last record is cut off; anything else unreadable is `storage_failed`
    /// naming the record.
    static func load(path: String) throws(WatchLinkError) -> (UserInfoLog, [Item]) {
        let bytes = try FileStore.readIfPresent(path) ?? []
        var items: [UInt64: Item] = [:]
        var sizes: [UInt64: Int] = [:]
        var acknowledged: UInt64 = 0
        var next: UInt64 = 1
        var offset = 0
        var index = 0
        var total = 0
        while offset + 4 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 9, length <= maxRecordLength else {
                // NB: a crash can leave the file longer than what reached it, padded with zeros.
                if bytes[offset...].allSatisfy({ $0 == 0 }) { break }
                throw corrupt(path, index, offset, "length \(length) is outside 9...\(maxRecordLength)")
            }
            guard offset + 4 + length <= bytes.count else {
                // NB: a record running past the end is a torn tail only when no whole record follows;
                // otherwise its length was damaged, and cutting the file there would lose synced records.
                if wholeRecordFollows(in: bytes, after: offset) {
                    throw corrupt(path, index, offset, "length \(length) runs past the end, with whole records after it")
                }
                break
            }
            let body = offset + 4
            // NB: no record has kind 0: a record whose bytes are all zeros to the end of the file is
            // one a crash left as a length and no more.
            if bytes[body] == 0 && bytes[body...].allSatisfy({ $0 == 0 }) { break }
            var end = body + length
            if bytes[body] & checked != 0 {
                let sum = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard length >= 13, CRC32.checksum(bytes[body..<(end - 4)]) == sum else {
                    // NB: only the last record can be torn; nothing but zeros may follow it.
                    if bytes[end...].allSatisfy({ $0 == 0 }) { break }
                    throw corrupt(path, index, offset, "checksum mismatch")
                }
                end -= 4
            }
            let id = bytes[(body + 1)..<(body + 9)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            switch Kind(rawValue: bytes[body] & ~checked) {
            case .add?:
                guard id > 0 else { throw corrupt(path, index, offset, "item id 0") }
                if id > acknowledged {
                    items[id] = Item(id: id, data: Data(bytes[(body + 9)..<end]))
                    sizes[id] = 4 + length
                }
                next = max(next, id &+ 1)
            case .acknowledged?:
                guard end - body == 9 else { throw corrupt(path, index, offset, "an acknowledgement carries bytes") }
                acknowledged = max(acknowledged, id)
                for key in items.keys where key <= id {
                    items[key] = nil
                    sizes[key] = nil
                }
                next = max(next, id &+ 1)
            case .next?:
                guard end - body == 9, id > 0 else { throw corrupt(path, index, offset, "a next id of 0 or with bytes") }
                next = max(next, id)
            case nil:
                throw corrupt(path, index, offset, "unknown kind \(bytes[body])")
            }
            offset += 4 + length
            total = offset
            index += 1
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw FileStore.failure("open", path) }
        // NB: a crash mid-append leaves a torn record; later appends must not follow it.
        if total < bytes.count {
            guard ftruncate(fd, off_t(total)) == 0, FileStore.syncData(fd) == 0 else {
                let failure = FileStore.failure("truncate", path)
                close(fd)
                throw failure
            }
        }
        if bytes.isEmpty { FileStore.syncDirectory(of: path) }
        let log = UserInfoLog(path: path, fd: fd, size: total, nextID: next)
        log.sizes = sizes
        log.liveBytes = sizes.values.reduce(0, +)
        log.deadBytes = total - log.liveBytes
        return (log, items.values.sorted { $0.id < $1.id })
    }

    private init(path: String, fd: Int32, size: Int, nextID: UInt64) {
        self.path = path
        self.fd = fd
        self.size = size
        self.nextID = nextID
    }

    deinit { close(fd) }

    /// Appends `data` as the next item and syncs it; returns its id.
    func add(_ data: Data) throws(WatchLinkError) -> UInt64 {
        let id = nextID
        let record = Self.record(.add, id, data)
        try append(record, sync: true)
        nextID = id + 1
        sizes[id] = record.count
        liveBytes += record.count
        return id
    }

    /// Records that every item up to `id` was acknowledged; `remaining` are the items still
    /// queued (kept by a compaction). Not synced: an acknowledgement lost to a crash only means
    /// the items are sent again, which a receiver takes as a resend.
    func acknowledge(through id: UInt64, remaining: [Item]) throws(WatchLinkError) {
        for key in sizes.keys where key <= id {
            deadBytes += sizes[key] ?? 0
            liveBytes -= sizes[key] ?? 0
            sizes[key] = nil
        }
        if deadBytes > compactionDue && deadBytes > liveBytes {
            // NB: a failed compaction leaves the old file whole; the acknowledgement is then
            // appended to it, so acknowledged items are not sent again after a restart, and the
            // next attempt waits until as many dead bytes again have piled up.
            do throws(WatchLinkError) {
                try compact(remaining)
                compactionDue = Self.compactionThreshold
                return
            } catch {
                compactionDue = deadBytes + Self.compactionThreshold
            }
        }
        let record = Self.record(.acknowledged, id, Data())
        try append(record, sync: false)
        deadBytes += record.count
    }

    /// Appends `record` whole, or leaves the file as it was and throws.
    private func append(_ record: [UInt8], sync: Bool) throws(WatchLinkError) {
        if let broken { throw broken }
        guard io.write(fd, record), !sync || FileStore.syncData(fd) == 0 else {
            let failure = FileStore.failure("append", path)
            // NB: part of the record may be in the file; the next record must not follow it, and
            // an item its caller was told failed must not come back after a crash.
            if !io.truncate(fd, size) || FileStore.syncData(fd) != 0 {
                broken = WatchLinkError(
                    .storageFailed, "the user-info log could not cut off a failed append",
                    details: ["path": path, "cause": failure.message])
            }
            throw failure
        }
        size += record.count
    }

    /// Rewrites the log with the next id (at least `nextID`) and `items` only.
    ///
    /// NB: the log keeps the descriptor the new file was written through
    /// (``FileStore/replaceFile(at:with:)``).
    func compact(_ items: [Item], nextID floor: UInt64 = 1) throws(WatchLinkError) {
        if let broken { throw broken }
        nextID = max(nextID, floor, (items.last?.id ?? 0) + 1)
        var bytes = Self.record(.next, nextID, Data())
        var sizes: [UInt64: Int] = [:]
        for item in items {
            let record = Self.record(.add, item.id, item.data)
            sizes[item.id] = record.count
            bytes += record
        }
        let fd = try FileStore.replaceFile(at: path, with: bytes)
        close(self.fd)
        self.fd = fd
        size = bytes.count
        self.sizes = sizes
        liveBytes = sizes.values.reduce(0, +)
        deadBytes = bytes.count - liveBytes
    }

    /// A record of `kind` for `id` carrying `data`, ending with its checksum unless `checksum`
    /// is false (as records of earlier versions were written).
    static func record(_ kind: Kind, _ id: UInt64, _ data: Data, checksum: Bool = true) -> [UInt8] {
        let length = UInt32(1 + 8 + data.count + (checksum ? 4 : 0))
        var out: [UInt8] = []
        out.reserveCapacity(4 + Int(length))
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        out.append(kind.rawValue | (checksum ? checked : 0))
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: id >> UInt64(shift))) }
        out += data
        if checksum {
            let sum = CRC32.checksum(out[4...])
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: sum >> UInt32(shift))) }
        }
        return out
    }

    /// Whether whole checksummed records (plausible length, known kind, matching CRC-32) run from
    /// somewhere after `offset` to the end of the file: records written after the one at `offset`.
    /// NB: one checksummed record alone is not enough: an item's own bytes, torn by a crash, may hold one.
    static func wholeRecordFollows(in bytes: [UInt8], after offset: Int) -> Bool {
        var start = offset + 1
        while start + 4 + 13 <= bytes.count {
            var next = start
            while let end = wholeRecord(in: bytes, at: next) {
                next = end
                if next == bytes.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The end of the whole checksummed record at `start`, or nil.
    static func wholeRecord(in bytes: [UInt8], at start: Int) -> Int? {
        guard start + 4 + 13 <= bytes.count else { return nil }
        let length = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let body = start + 4
        guard length >= 13, length <= maxRecordLength, body + length <= bytes.count, bytes[body] & checked != 0,
            Kind(rawValue: bytes[body] & ~checked) != nil
        else { return nil }
        let end = body + length
        let sum = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return CRC32.checksum(bytes[body..<(end - 4)]) == sum ? end : nil
    }

    private static func corrupt(_ path: String, _ index: Int, _ offset: Int, _ reason: String) -> WatchLinkError {
        WatchLinkError(
            .storageFailed, "corrupt user-info log record \(index) at offset \(offset): \(reason)",
            details: ["path": path, "field": "record[\(index)]"])
    }
}
