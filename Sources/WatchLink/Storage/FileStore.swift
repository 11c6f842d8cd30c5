import Foundation
import PWAKitFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A durable log in a file: length-prefixed records (``RecordCodec``), `fdatasync` to sync, and
/// write-temporary + `fsync` + `rename` + directory `fsync` to compact.
///
/// A torn record at the end (a crash mid-append) is ignored on load.
public final class FileStore: DurableStore {
    private struct State {
        var fd: Int32
        var buffer: [UInt8] = []
    }

    /// The log file.
    public let path: String
    private let state: Mutex<State>

    /// Opens (creating if needed) the log at `path`.
    public init(path: String) throws(WatchLinkError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw FileStore.failure("open", path) }
        state = Mutex(State(fd: fd))
    }

    deinit {
        state.withLock { _ = close($0.fd) }
    }

    /// Reads every complete record.
    package func load() throws(WatchLinkError) -> [DurableRecord] {
        guard let bytes = try FileStore.readIfPresent(path) else { return [] }
        return try FileStore.decodeLog(bytes)
    }

    /// Decodes a log image, stopping at a torn tail; a corrupt complete record is an error.
    static func decodeLog(_ bytes: [UInt8]) throws(WatchLinkError) -> [DurableRecord] {
        var records: [DurableRecord] = []
        var offset = 0
        let decoder = JSONDecoder()
        while offset + 4 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= 4 << 20 else {
                throw WatchLinkError(
                    .storageFailed, "record length \(length) at offset \(offset) is implausible",
                    details: ["field": "log[\(records.count)]"])
            }
            guard offset + 4 + length <= bytes.count else { break }
            do {
                records.append(try RecordCodec.decode(Array(bytes[(offset + 4)..<(offset + 4 + length)]), json: decoder))
            } catch {
                throw WatchLinkError(
                    .storageFailed, "corrupt record at offset \(offset)", details: ["field": "log[\(records.count)]"])
            }
            offset += 4 + length
        }
        return records
    }

    static func frame(_ records: [DurableRecord]) throws(WatchLinkError) -> [UInt8] {
        var out: [UInt8] = []
        let encoder = WireCodec.makeEncoder()
        for record in records {
            let body = try RecordCodec.encode(record, json: encoder)
            let n = UInt32(body.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            out += body
        }
        return out
    }

    /// `fdatasync` waits on the disk, so the connection runs it off its actor.
    package var syncsInBackground: Bool { true }

    /// Buffers records for the next sync.
    package func append(_ records: [DurableRecord]) throws(WatchLinkError) {
        let bytes = try FileStore.frame(records)
        state.withLock { $0.buffer += bytes }
    }

    /// Writes buffered records and syncs the file's data (`fdatasync`: the size an append changes is synced too).
    package func sync() throws(WatchLinkError) {
        let result: Int32 = state.withLock { state in
            if state.buffer.isEmpty { return 0 }
            let ok = FileStore.writeAll(state.fd, state.buffer)
            state.buffer.removeAll(keepingCapacity: true)
            guard ok else { return -1 }
            return FileStore.syncData(state.fd)
        }
        if result != 0 { throw FileStore.failure("fdatasync", path) }
    }

    /// Writes a new log beside the old one, syncs it and renames it into place.
    package func replace(with records: [DurableRecord]) throws(WatchLinkError) {
        let bytes = try FileStore.frame(records)
        let failure: WatchLinkError? = state.withLock { state in
            let fd: Int32
            do throws(WatchLinkError) { fd = try FileStore.replaceFile(at: path, with: bytes) } catch { return error }
            close(state.fd)
            state.fd = fd
            state.buffer.removeAll()
            return nil
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
