import Foundation
import PWAKitFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A durable log in a file: a header (`WLKLOG`, 0, version 3, then 8 random bytes, the file's
/// salt, twice), then each record (``RecordCodec``) in a ``LogFrame`` whose CRC-32 covers the salt,
/// its length and its body; `fdatasync` to sync, and write-temporary + `fsync` + `rename` +
/// directory `fsync` to compact (each new file with a salt of its own).
///
/// The salt makes a frame that a record's bytes hold (a request's payload is an app's, or its
/// counterpart's, bytes) fail the check in this file, so it can never pass for a record of its own,
/// even once a crash has torn the record around it; nor can a frame of an earlier file whose blocks
/// a crash left behind.
///
/// The file is grown ahead of the log with written zeros (64 KiB at first, doubling up to 1 MiB
/// at a time), and each sync writes its records over them at the log's end, as PostgreSQL
/// pre-zeroes its WAL segments: a sync that does not change the file's size or allocate blocks
/// flushes only its data, not a journal commit of the file's metadata too. Here that halved an
/// `fdatasync`'s latency and cut its CPU by a third (see the figures in `docs/watchlink.md`). The
/// zeros after the last record are the log's free space, not damage.
///
/// What a crash can leave after the last sync (a torn append, garbage) is dropped on load and the
/// file rewritten without it, so every synced record loads and later appends never follow
/// garbage; ``lastRecovery`` says what was dropped. A header one of whose copies of the salt is
/// damaged is read with the copy more records check out with. A log of an earlier format (version
/// 2, whose frames were not salted; or length-prefixed records without a checksum, before the
/// header) is read once and rewritten in this one.
public final class FileStore: DurableStore {
    private struct State {
        var fd: Int32
        /// The checksum seed of the file's salt.
        var seed: UInt32
        /// Where the log ends: the next sync writes here.
        var end: Int
        /// The file's size: zeros from ``end`` to here.
        var allocated: Int
        /// What the next sync writes.
        var buffer: [UInt8] = []
        /// The records in ``buffer``.
        var bufferedRecords = 0
        /// The other half of the double buffer: the bytes a sync is writing, kept for their capacity.
        var spare: [UInt8] = []
        var statistics = Statistics()
        /// The first write or sync that failed: what was appended before it may never reach the
        /// disk, so every later append, sync or replacement throws it (a later sync must not
        /// report success for records a failed one dropped).
        var failure: WatchLinkError?
    }

    /// What the log has done since it was opened: what the benchmark reports as records per sync.
    package struct Statistics: Sendable, Equatable {
        /// Records appended.
        package var records = 0
        /// Their framed bytes.
        package var bytes = 0
        /// Syncs that wrote something.
        package var syncs = 0
    }

    /// The first bytes of a log in this format: `WLKLOG`, 0, version 3; the salt follows, twice.
    static let magic: [UInt8] = Array("WLKLOG".utf8) + [0, 3]
    /// The magic and the 8-byte salt, twice (a changed byte in one copy leaves the other).
    static let headerSize = 24
    /// The first bytes of a log of version 2, whose frames are not salted.
    static let unsaltedMagic: [UInt8] = Array("WLKLOG".utf8) + [0, 2]

    /// The header of a log salted with `salt`.
    static func header(salt: [UInt8]) -> [UInt8] { magic + salt + salt }
    /// The largest record body.
    static let maximumRecord = 4 << 20

    /// The log file.
    public let path: String
    private let state: Mutex<State>
    /// Held by the one sync (or replacement) under way, so appends never wait on the disk: they
    /// go to the other buffer while a sync writes and flushes.
    private let writer = Mutex(())
    private let recovery = Mutex<[Range<Int>]>([])
    /// What the opening dropped, until the first ``load()`` reports it.
    private let openingDamage = Mutex<[Range<Int>]?>(nil)

    /// The byte ranges the last ``load()`` dropped as crash damage (empty when the log was whole).
    public var lastRecovery: [Range<Int>] { recovery.withLock { $0 } }

    /// Opens (creating if needed) the log at `path`; a new log starts with its header, synced. A log
    /// of an earlier format is rewritten in this one (what a crash damaged in it is dropped, and
    /// reported by ``lastRecovery``).
    public init(path: String) throws(WatchLinkError) {
        self.path = path
        let existing = try FileStore.readIfPresent(path) ?? []
        // NB: the frames are checked, not decoded: ``load()`` decodes them.
        let read = try FileStore.readImage(existing, decoding: false)
        guard let salt = read.salt else {
            // NB: new, a header a crash cut short, or an earlier format: (re)written whole in this one.
            let records = try FileStore.readImage(existing).records
            let salt = LogFrame.newSalt()
            let image = FileStore.image(records, salt: salt)
            let fd = try FileStore.replaceLog(at: path, with: image)
            recovery.withLock { $0 = read.damaged }
            openingDamage.withLock { $0 = read.damaged }
            state = Mutex(State(fd: fd, seed: LogFrame.seed(salt: salt), end: image.count, allocated: image.count))
            return
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileStore.failure("open", path) }
        // NB: with damage, after everything (``load()`` rewrites the file without it, and until then
        // no byte of it is overwritten); otherwise after the last frame, over the free space.
        let end = read.damaged.isEmpty ? read.end : existing.count
        state = Mutex(State(fd: fd, seed: LogFrame.seed(salt: salt), end: end, allocated: existing.count))
    }

    deinit {
        state.withLock { _ = close($0.fd) }
    }

    /// Reads every record that survived. Crash damage after the last sync is dropped and the file
    /// rewritten without it; a whole frame that does not decode (not crash damage: a record this
    /// version cannot read) is `storage_failed` naming it.
    package func load() throws(WatchLinkError) -> [DurableRecord] {
        guard let bytes = try FileStore.readIfPresent(path) else { return [] }
        let read = try FileStore.readImage(bytes)
        // NB: what the opening dropped (rewriting a log of an earlier format) is reported by the
        // first load; a later one that finds the log whole reports nothing.
        let openedWithDamage = openingDamage.withLock { damage in
            defer { damage = nil }
            return damage
        }
        guard !read.damaged.isEmpty || read.salt == nil else {
            recovery.withLock { $0 = openedWithDamage ?? [] }
            return read.records
        }
        recovery.withLock { $0 = read.damaged }
        try replace(with: read.records)
        return read.records
    }

    /// `fdatasync` waits on the disk, so the connection runs it on its sync queue, off its jobs.
    package var syncsInBackground: Bool { true }

    /// What the log has done since it was opened.
    package var statistics: Statistics { state.withLock { $0.statistics } }

    /// Buffers records for the next sync. It never waits for a sync under way: that one writes
    /// the other buffer.
    package func append(_ records: [DurableRecord]) throws(WatchLinkError) {
        var seed = state.withLock { $0.seed }
        while true {
            // NB: framed outside the lock; a replacement meanwhile (a new file, a new salt) means again.
            let bytes = FileStore.frames(records, seed: seed)
            let appended: Result<Bool, WatchLinkError> = state.withLock {
                if let failure = $0.failure { return .failure(failure) }
                guard $0.seed == seed else {
                    seed = $0.seed
                    return .success(false)
                }
                $0.buffer += bytes
                $0.bufferedRecords += records.count
                $0.statistics.records += records.count
                $0.statistics.bytes += bytes.count
                return .success(true)
            }
            switch appended {
            case .failure(let failure): throw failure
            case .success(true): return
            case .success(false): continue
            }
        }
    }

    /// Writes what was appended before the call at the log's end and syncs the file's data
    /// (`fdatasync`), first growing the file with zeros when they would not fit (that sync then
    /// syncs the new size too). One sync runs at a time; appends made while it writes wait for the
    /// next.
    package func sync() throws(WatchLinkError) {
        _ = try syncCountingRecords()
    }

    /// Records appended that no sync has taken yet.
    package var bufferedRecords: Int { state.withLock { $0.bufferedRecords } }

    /// ``sync()``, returning how many records it wrote.
    package func syncCountingRecords() throws(WatchLinkError) -> Int {
        var written = 0
        let failure: WatchLinkError? = writer.withLock { _ in
            let taken: Result<(Int32, [UInt8], Int, Int), WatchLinkError> = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                var bytes = state.spare
                swap(&bytes, &state.buffer)
                state.spare = []
                written = state.bufferedRecords
                state.bufferedRecords = 0
                if !bytes.isEmpty { state.statistics.syncs += 1 }
                return .success((state.fd, bytes, state.end, state.allocated))
            }
            let fd: Int32
            var bytes: [UInt8]
            let end: Int
            var allocated: Int
            switch taken {
            case .failure(let failure): return failure
            case .success(let value): (fd, bytes, end, allocated) = value
            }
            guard !bytes.isEmpty else { return nil }
            var failure: WatchLinkError?
            let newEnd = end + bytes.count
            if !FileStore.writeAll(fd, bytes, at: end) {
                failure = FileStore.failure("write", path)
            } else {
                if newEnd > allocated {
                    // NB: growing is only to make later syncs cheaper: when the zeros do not fit (a
                    // full disk), the data is synced all the same, and the next sync tries again.
                    let zeros = FileStore.zeros(from: newEnd, growing: allocated)
                    allocated = FileStore.writeAll(fd, zeros, at: newEnd) ? newEnd + zeros.count : newEnd
                }
                if FileStore.syncData(fd) != 0 { failure = FileStore.failure("fdatasync", path) }
            }
            bytes.removeAll(keepingCapacity: true)
            state.withLock { state in
                state.spare = bytes
                if let failure {
                    state.failure = failure
                } else {
                    state.end = newEnd
                    state.allocated = allocated
                }
            }
            return failure
        }
        if let failure { throw failure }
        return written
    }

    /// Writes a new log beside the old one, with a salt of its own, syncs it and renames it into place.
    package func replace(with records: [DurableRecord]) throws(WatchLinkError) {
        let salt = LogFrame.newSalt()
        let bytes = FileStore.image(records, salt: salt)
        let failure: WatchLinkError? = writer.withLock { _ in
            state.withLock { state in
                if let failure = state.failure { return failure }
                let fd: Int32
                do throws(WatchLinkError) { fd = try FileStore.replaceLog(at: path, with: bytes) } catch { return error }
                close(state.fd)
                state.fd = fd
                state.seed = LogFrame.seed(salt: salt)
                state.end = bytes.count
                state.allocated = bytes.count
                state.buffer.removeAll()
                state.bufferedRecords = 0
                return nil
            }
        }
        if let failure { throw failure }
    }

    /// Writes `bytes` to a file beside `path`, syncs it, renames it over `path`, syncs the
    /// directory, and returns the descriptor it wrote through (open for appending), or leaves
    /// `path` as it was and throws.
    ///
    /// NB: a log keeps that descriptor; reopening after the rename could fail and leave it
    /// appending to the replaced file.
    static func replaceFile(at path: String, with bytes: [UInt8]) throws(WatchLinkError) -> Int32 {
        do {
            return try DurableFile.replaceKeepingOpen(path, with: bytes)
        } catch {
            throw WatchLinkError(
                .storageFailed, "\(error.operation) failed: \(String(cString: strerror(error.errno)))",
                details: ["path": error.path])
        }
    }

    /// ``replaceFile(at:with:)`` for this log, which writes at its end (before the zeros it grows
    /// the file with): the descriptor is no longer open for appending, where a `pwrite` would
    /// ignore its offset on Linux.
    static func replaceLog(at path: String, with bytes: [UInt8]) throws(WatchLinkError) -> Int32 {
        let fd = try replaceFile(at: path, with: bytes)
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_APPEND) == 0 else {
            let failure = failure("fcntl", path)
            close(fd)
            throw failure
        }
        return fd
    }

    /// The bytes of the file at `path`, or nil when there is none; any other failure to read it
    /// is `storage_failed` (an unreadable log is never taken for an empty one).
    static func readIfPresent(_ path: String) throws(WatchLinkError) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool { DurableFile.writeAll(fd, bytes) }

    /// Writes all of `bytes` at `offset` (`pwrite`, retried until whole).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset + written)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 { return false }
            written += n
        }
        return true
    }

    /// The smallest step the file grows by.
    static let minimumGrowth = 64 << 10
    /// The largest step the file grows by.
    static let maximumGrowth = 1 << 20

    /// The file's size once a log ending at `end` outgrew a file of `size`: `end` rounded up to a
    /// step as large as the file (at least 64 KiB, at most 1 MiB), so growing costs amortised
    /// constant per byte and a small log keeps a small file.
    static func grownSize(from end: Int, growing size: Int) -> Int {
        let step = min(maximumGrowth, max(minimumGrowth, size))
        return (end + step - 1) / step * step
    }

    /// The zeros written after a log ending at `end` that outgrew a file of `size`.
    static func zeros(from end: Int, growing size: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: grownSize(from: end, growing: size) - end)
    }

    static func syncData(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            fdatasync(fd)
        #else
            fsync(fd)
        #endif
    }

    /// Syncs the directory holding `path`; a failure to sync is not reported (the write itself
    /// already succeeded, and callers have nothing better to do).
    static func syncDirectory(of path: String) {
        try? DurableFile.syncDirectory(of: path)
    }

    static func failure(_ operation: String, _ path: String) -> WatchLinkError {
        WatchLinkError(.storageFailed, "\(operation) failed: \(String(cString: strerror(errno)))", details: ["path": path])
    }
}
