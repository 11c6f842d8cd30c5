import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The queued user info of a ``SocketSession`` on disk: an append-only log, so queueing an item
/// writes that item alone, however long the queue is.
///
/// The file starts with a header (`WLKUIL`, 0, version 2, then 8 random bytes, the file's salt,
/// twice);
/// each record is a ``LogFrame`` (its length, a CRC-32 over the salt, the length and the body, the
/// body) whose body is a kind byte, an 8-byte big-endian id and the kind's bytes. The salt makes a
/// frame that an app's item holds (its bytes are the app's) fail the check in this file, so it can
/// never pass for a record, even once a crash has torn the item around it. Kinds:
/// - `add`: the item with that id, its bytes after the id;
/// - `acknowledged`: every item up to that id was acknowledged and is gone;
/// - `next`: the next id to hand out (written first by a compaction, which drops the rest).
///
/// What a crash leaves after the last sync (a torn append, a tail of zeros a file system left) is
/// dropped when the log is opened, and so is a damaged record anywhere else (its checksum covers its
/// length, so a damaged length is damage, never a record running past the end): reading goes on at
/// the next valid frame, keeps every record after the damage, and rewrites the file without it
/// (``lastRecovery`` says what was dropped). After any damage the next id jumps by 2^32, past every
/// id the dropped records could have held, so no id is handed out twice (a receiver takes an id it
/// has seen for a resend). A frame whose checksum holds but whose body is not a valid record is
/// `storage_failed` naming it, unless it follows damage (then it is more damage). A header whose
/// first bytes are damaged is read with its salt, and one whose two copies of the salt differ with
/// the copy more records check out with.
/// An append that fails is cut off at once (and the cut synced), so nothing ever follows a partial
/// record; a log that cannot cut it off refuses further writes with `storage_failed` until it is
/// opened again. Once acknowledged records outweigh live ones (and pass ``compactionThreshold``)
/// the log is rewritten with the live items only (write beside, `fsync`, `rename`, directory
/// `fsync`); a compaction that fails leaves the old file as it was and the acknowledgement is
/// appended instead. A log of the format before the header (records of a length, a kind byte with
/// a checksum flag, an id, bytes and an optional CRC-32 that left the length out) is read once and
/// rewritten in this one. Not thread-safe: its owner serialises calls.
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

    /// The first bytes of a log in this format: `WLKUIL`, 0, version 2; the salt follows.
    static let magic: [UInt8] = Array("WLKUIL".utf8) + [0, 2]
    /// The magic and the 8-byte salt, twice (a changed byte in one copy leaves the other).
    static let headerSize = 24
    /// How far the next id jumps after damage: past any id the dropped records could have held.
    static let idJumpAfterDamage: UInt64 = 1 << 32
    /// The largest record body: an item at the user-info size limit.
    static let maxBody = 1 + 8 + SessionLimits.userInfo
    /// The earlier format's kind-byte flag for a record that ends with its CRC-32.
    static let checked: UInt8 = 0x80
    /// The largest record of the earlier format: an item at the user-info size limit, checksummed.
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
    /// The file's salt, and the checksum seed it makes.
    let salt: [UInt8]
    private let seed: UInt32
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
    /// The byte ranges the opening load dropped as damage (empty when the log was whole).
    private(set) var lastRecovery: [Range<Int>] = []

    /// What the records say so far, as they are read in order.
    private struct Replay {
        var items: [UInt64: Item] = [:]
        var sizes: [UInt64: Int] = [:]
        var acknowledged: UInt64 = 0
        var next: UInt64 = 1

        /// Applies the record `kind`, `id`, `data`, of `size` bytes in the file; the reason it is
        /// not a valid record, or nil.
        mutating func apply(kind: UInt8, id: UInt64, data: ArraySlice<UInt8>, size: Int) -> String? {
            switch Kind(rawValue: kind) {
            case .add?:
                guard id > 0 else { return "item id 0" }
                if id > acknowledged {
                    items[id] = Item(id: id, data: Data(data))
                    sizes[id] = size
                }
                next = max(next, id &+ 1)
            case .acknowledged?:
                guard data.isEmpty else { return "an acknowledgement carries bytes" }
                acknowledged = max(acknowledged, id)
                for key in items.keys where key <= id {
                    items[key] = nil
                    sizes[key] = nil
                }
                next = max(next, id &+ 1)
            case .next?:
                guard data.isEmpty, id > 0 else { return "a next id of 0 or with bytes" }
                next = max(next, id)
            case nil:
                return "unknown kind \(kind)"
            }
            return nil
        }
    }

    /// Opens (creating if needed) the log at `path` and returns it with the items still queued,
    /// in id order. Damage is dropped (see the type's notes); a valid frame that is not a valid
    /// record, before any damage, is `storage_failed` naming the record.
    static func load(path: String) throws(WatchLinkError) -> (UserInfoLog, [Item]) {
        let bytes = try FileStore.readIfPresent(path) ?? []
        if bytes.isEmpty {
            let salt = LogFrame.newSalt()
            let fd = try FileStore.replaceFile(at: path, with: header(salt: salt))
            return (UserInfoLog(path: path, fd: fd, size: headerSize, nextID: 1, salt: salt), [])
        }
        var replay = Replay()
        var dropped: [Range<Int>] = []
        // NB: no log of the earlier format starts with a length this large (`WLKU` read as one).
        let firstLength = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let current = bytes.count >= headerSize && (bytes.starts(with: magic) || firstLength > maxRecordLength)
        var salt = LogFrame.newSalt()
        if current {
            if !bytes.starts(with: magic) { dropped.append(0..<magic.count) }
            let copies = [Array(bytes[magic.count..<(magic.count + 8)]), Array(bytes[(magic.count + 8)..<headerSize])]
            salt = copies[0]
            var scan = LogFrame.scan(bytes, from: headerSize, maximumLength: maxBody, seed: LogFrame.seed(salt: salt))
            if copies[1] != copies[0] {
                // NB: one copy was damaged: the other is the one the records check out with.
                dropped.append(magic.count..<headerSize)
                let other = LogFrame.scan(bytes, from: headerSize, maximumLength: maxBody, seed: LogFrame.seed(salt: copies[1]))
                if other.bodies.count > scan.bodies.count {
                    scan = other
                    salt = copies[1]
                }
                // NB: both copies damaged: the records cannot be checked, so none is dropped as
                // damage; the file is left as it is (a log that never held one opens).
                if scan.bodies.isEmpty, bytes[headerSize...].contains(where: { $0 != 0 }) {
                    throw WatchLinkError(
                        .storageFailed,
                        "the user-info log's salt is damaged in both of its copies; no record checks out with either",
                        details: ["path": path, "field": "salt"])
                }
            }
            dropped += scan.damaged
            let firstDamage = scan.damaged.first?.lowerBound ?? Int.max
            for (index, body) in scan.bodies.enumerated() {
                let frame = (body.lowerBound - LogFrame.headerSize)..<body.upperBound
                let reason =
                    body.count < 9
                    ? "a record of \(body.count) bytes"
                    : replay.apply(
                        kind: bytes[body.lowerBound], id: readID(bytes, at: body.lowerBound + 1),
                        data: bytes[(body.lowerBound + 9)..<body.upperBound], size: frame.count)
                guard let reason else { continue }
                // NB: after damage, a frame may be bytes of a damaged record's body that happen to
                // check out; one that is no valid record is more damage, not a reason to refuse.
                guard frame.lowerBound > firstDamage else { throw corrupt(path, index, frame.lowerBound, reason) }
                dropped.append(frame)
            }
        } else {
            try replayEarlierFormat(bytes, path: path, into: &replay)
        }
        let items = replay.items.values.sorted { $0.id < $1.id }
        if !dropped.isEmpty {
            // NB: an id must never be handed out twice (a receiver takes an id it has seen for a
            // resend), and the dropped records (items, or the `next` record a compaction wrote) may
            // have held any id up to the next one: jump past them all. Ids only need to grow.
            let (jumped, overflow) = replay.next.addingReportingOverflow(idJumpAfterDamage)
            replay.next = overflow ? .max : jumped
        }
        guard current && dropped.isEmpty else {
            // NB: rewritten whole (beside, fsync, rename), so later appends never follow damage or
            // the earlier format; no descriptor yet: the compaction keeps the one it wrote through.
            let log = UserInfoLog(path: path, fd: -1, size: 0, nextID: replay.next, salt: salt)
            try log.compact(items, nextID: replay.next)
            log.lastRecovery = dropped.sorted { $0.lowerBound < $1.lowerBound }
            return (log, items)
        }
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { throw FileStore.failure("open", path) }
        let log = UserInfoLog(path: path, fd: fd, size: bytes.count, nextID: replay.next, salt: salt)
        log.sizes = replay.sizes
        log.liveBytes = replay.sizes.values.reduce(0, +)
        log.deadBytes = bytes.count - headerSize - log.liveBytes
        return (log, items)
    }

    /// The header of a log salted with `salt`.
    static func header(salt: [UInt8]) -> [UInt8] { magic + salt + salt }

    /// Reads a log of the format before the header. A torn last record (cut short, a checksum that
    /// fails on the last record, or a tail of zeros) ends it; anything else unreadable is
    /// `storage_failed` naming the record.
    private static func replayEarlierFormat(_ bytes: [UInt8], path: String, into replay: inout Replay) throws(WatchLinkError) {
        var offset = 0
        var index = 0
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
            if let reason = replay.apply(
                kind: bytes[body] & ~checked, id: readID(bytes, at: body + 1), data: bytes[(body + 9)..<end], size: 4 + length)
            {
                throw corrupt(path, index, offset, reason)
            }
            offset += 4 + length
            index += 1
        }
    }

    private static func readID(_ bytes: [UInt8], at start: Int) -> UInt64 {
        bytes[start..<(start + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    private init(path: String, fd: Int32, size: Int, nextID: UInt64, salt: [UInt8]) {
        self.path = path
        self.fd = fd
        self.size = size
        self.nextID = nextID
        self.salt = salt
        self.seed = LogFrame.seed(salt: salt)
    }

    deinit { close(fd) }

    /// Appends `data` as the next item and syncs it; returns its id.
    func add(_ data: Data) throws(WatchLinkError) -> UInt64 {
        let id = nextID
        guard id < .max else {
            throw WatchLinkError(.storageFailed, "the user-info log ran out of ids", details: ["path": path])
        }
        let record = self.record(.add, id, data)
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
        let record = self.record(.acknowledged, id, Data())
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
        var bytes = Self.header(salt: salt) + record(.next, nextID, Data())
        var sizes: [UInt64: Int] = [:]
        for item in items {
            let record = self.record(.add, item.id, item.data)
            sizes[item.id] = record.count
            bytes += record
        }
        let fd = try FileStore.replaceFile(at: path, with: bytes)
        close(self.fd)
        self.fd = fd
        size = bytes.count
        self.sizes = sizes
        liveBytes = sizes.values.reduce(0, +)
        deadBytes = bytes.count - Self.headerSize - liveBytes
    }

    /// The record of `kind` for `id` carrying `data`, for this file.
    func record(_ kind: Kind, _ id: UInt64, _ data: Data) -> [UInt8] { Self.record(kind, id, data, seed: seed) }

    /// The record of `kind` for `id` carrying `data`: a ``LogFrame`` whose checksum is seeded with `seed`.
    static func record(_ kind: Kind, _ id: UInt64, _ data: Data, seed: UInt32) -> [UInt8] {
        var body: [UInt8] = [kind.rawValue]
        body.reserveCapacity(9 + data.count)
        for shift in stride(from: 56, through: 0, by: -8) { body.append(UInt8(truncatingIfNeeded: id >> UInt64(shift))) }
        body += data
        var out: [UInt8] = []
        out.reserveCapacity(LogFrame.headerSize + body.count)
        LogFrame.append(body, to: &out, seed: seed)
        return out
    }

    /// A record in the format before the header, ending with its checksum unless `checksum` is
    /// false (as the first version wrote them); for reading such logs, and for tests.
    static func earlierRecord(_ kind: Kind, _ id: UInt64, _ data: Data, checksum: Bool = true) -> [UInt8] {
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
