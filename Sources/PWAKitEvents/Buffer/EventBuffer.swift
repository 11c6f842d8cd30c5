public import Foundation
public import PWAKitAPI
import PWAKitFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A crash-safe queue of analytics events on disk, shared by every process of an app (the app, an
/// extension, a command) through one directory, such as the app group's container.
///
/// Each process appends its events, one JSON line each, to a chunk file of its own in `open/`
/// (nobody else writes it; the process holds an `flock` on it while it lives) and syncs after
/// each event, so when ``record(_:)`` returns the event survives a crash of the process or of the
/// machine. A chunk is sealed — renamed into `queue/` as `<timestamp>-<count>-<id>.chunk`, the
/// directory synced — when it holds ``EventBufferLimits/chunkCapacity`` events or is older than
/// ``EventBufferLimits/chunkAge``, when the process calls ``seal()`` or ``close()``, and, for a
/// process that was killed, by the next relay: a chunk in `open/` whose lock nobody holds is cut
/// back to its last complete line and sealed. Sealed chunks are immutable; the relay sends them
/// oldest first and deletes each once the server has accounted for its events.
///
/// A line that cannot be read as an event (torn by a kill, or corrupt) is skipped and counted as
/// dropped; it never holds back the others. Over its ``EventBufferLimits`` the buffer deletes its
/// oldest chunks and counts their events as dropped; the count is reported to the server with the
/// next batch.
public final class EventBuffer: Sendable {
    /// The buffer's directory.
    public let directory: URL
    /// The limits.
    public let limits: EventBufferLimits
    private let lock: FileLock
    private let chunk = Mutex<OpenChunk?>(nil)
    private let sealsSinceCheck = Mutex(0)

    /// This process's open chunk.
    struct OpenChunk {
        let id: String
        let fd: Int32
        let opened: Date
        var count: Int
        var firstTimestamp: Int64
    }

    /// Opens (creating) the buffer in `directory`.
    public init(directory: URL, limits: EventBufferLimits = EventBufferLimits()) throws(EventBufferError) {
        self.directory = directory
        self.limits = limits
        do {
            for folder in ["open", "queue"] {
                try DurableFile.makeDirectory(directory.appendingPathComponent(folder).path, permissions: 0o700)
            }
            lock = try FileLock(path: directory.appendingPathComponent("buffer.lock").path)
        } catch {
            throw Self.storage(error)
        }
    }

    deinit {
        try? close()
    }

    var openPath: String { directory.appendingPathComponent("open").path }
    var queuePath: String { directory.appendingPathComponent("queue").path }
    var counterPath: String { directory.appendingPathComponent("dropped.json").path }

    // MARK: Recording

    /// Queues `event` durably: when this returns, the event survives a crash of this process or
    /// of the machine.
    ///
    /// - Throws: `invalid_event` naming the field at fault; `storage_failed`.
    public func record(_ event: EventPayload) throws(EventBufferError) {
        if let problem = EventRules.problem(with: event) {
            throw EventBufferError(.invalidEvent, problem.message, field: problem.field)
        }
        var line: [UInt8]
        do {
            line = Array(try Self.encoder.encode(event))
        } catch {
            throw EventBufferError(.invalidEvent, "cannot be encoded: \(error)")
        }
        line.append(UInt8(ascii: "\n"))
        let sealed = try chunk.withLock { (open: inout OpenChunk?) throws(EventBufferError) -> Bool in
            if open == nil { open = try createChunk(firstTimestamp: event.timestamp) }
            guard var current = open else { return false }
            guard DurableFile.writeAll(current.fd, line), fdatasync(current.fd) == 0 else {
                let error = DurableFile.failure("write", "\(openPath)/\(current.id).chunk")
                // NB: a line half written stays torn at the end; the chunk is sealed as it is and
                // readers skip the torn line.
                try? sealLocked(&open)
                throw Self.storage(error)
            }
            current.count += 1
            open = current
            guard current.count >= limits.chunkCapacity || Date().timeIntervalSince(current.opened) >= limits.chunkAge
            else { return false }
            try sealLocked(&open)
            return true
        }
        if sealed { try checkLimitsIfDue() }
    }

    /// Seals this process's open chunk now (before the app is suspended, before a relay in this
    /// process sends), so its events can be sent.
    public func seal() throws(EventBufferError) {
        try chunk.withLock { (open: inout OpenChunk?) throws(EventBufferError) in try sealLocked(&open) }
    }

    /// Seals the open chunk and gives back its lock; recording afterwards opens a new one.
    public func close() throws(EventBufferError) { try seal() }

    private func createChunk(firstTimestamp: Int64) throws(EventBufferError) -> OpenChunk {
        let id = EventID.make(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        // NB: created under a name relays ignore, locked, then renamed: a relay never takes a chunk
        // whose owner has not locked it yet for an abandoned one.
        let creating = "\(openPath)/\(id).creating"
        let fd = open(creating, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.storage(DurableFile.failure("open", creating)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(creating, "\(openPath)/\(id).chunk") == 0 else {
            let error = DurableFile.failure("lock", creating)
            closeDescriptor(fd)
            unlink(creating)
            throw Self.storage(error)
        }
        do {
            try DurableFile.syncDirectory(of: "\(openPath)/\(id).chunk")
        } catch {
            throw Self.storage(error)
        }
        return OpenChunk(id: id, fd: fd, opened: Date(), count: 0, firstTimestamp: firstTimestamp)
    }

    private func sealLocked(_ open: inout OpenChunk?) throws(EventBufferError) {
        guard let current = open else { return }
        open = nil
        defer { closeDescriptor(current.fd) }
        let source = "\(openPath)/\(current.id).chunk"
        guard current.count > 0 else {
            unlink(source)
            return
        }
        let target =
            "\(queuePath)/\(Self.chunkName(firstTimestamp: current.firstTimestamp, count: current.count, id: current.id))"
        do {
            try DurableFile.move(source, to: target)
        } catch {
            throw Self.storage(error)
        }
    }

    /// The name of a sealed chunk: its first event's timestamp (13 digits), its event count and its
    /// id, so names sort by time and the queue's size is known without reading it.
    static func chunkName(firstTimestamp: Int64, count: Int, id: String) -> String {
        let digits = String(max(0, firstTimestamp))
        return String(repeating: "0", count: max(0, 13 - digits.count)) + digits + "-\(count)-\(id).chunk"
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Abandoned chunks

    /// Seals the open chunks of processes that are gone (their lock is free), each cut back to its
    /// last complete line; temporary files older than a minute are removed. How many were sealed.
    @discardableResult
    public func recoverAbandoned() throws(EventBufferError) -> Int {
        var recovered = 0
        let now = Date()
        for name in try Self.names(in: openPath) {
            let path = "\(openPath)/\(name)"
            if name.hasSuffix(".creating") {
                if let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date,
                    now.timeIntervalSince(modified) > 60
                {
                    unlink(path)
                }
                continue
            }
            guard name.hasSuffix(".chunk") else { continue }
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { closeDescriptor(fd) }
            // NB: held by a live process (this one included, through another descriptor): not ours to seal.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            guard let data = try? DurableFile.contents(of: path) else { continue }
            var bytes = Array(data)
            if let end = bytes.lastIndex(of: UInt8(ascii: "\n")) {
                bytes.removeSubrange((end + 1)...)
            } else {
                bytes = []
            }
            if bytes.count != data.count {
                guard ftruncate(fd, off_t(bytes.count)) == 0, fsync(fd) == 0 else { continue }
            }
            let lines = Self.lines(bytes)
            guard let first = lines.first else {
                unlink(path)
                continue
            }
            let timestamp = (try? JSONDecoder().decode(EventPayload.self, from: Data(first)))?.timestamp ?? 0
            let id = String(name.dropLast(".chunk".count))
            do {
                try DurableFile.move(
                    path, to: "\(queuePath)/\(Self.chunkName(firstTimestamp: timestamp, count: lines.count, id: id))")
                recovered += 1
            } catch {
                throw Self.storage(error)
            }
        }
        return recovered
    }

    // MARK: Reading

    /// The sealed chunks, oldest first.
    public func sealedChunks() throws(EventBufferError) -> [String] {
        try Self.names(in: queuePath).filter { $0.hasSuffix(".chunk") }.sorted()
    }

    /// How many events are queued: sealed, and in open chunks.
    public func count() throws(EventBufferError) -> Int {
        var total = try sealedChunks().reduce(0) { $0 + Self.eventCount(ofChunk: $1) }
        for name in try Self.names(in: openPath) where name.hasSuffix(".chunk") {
            if let data = try? DurableFile.contents(of: "\(openPath)/\(name)") {
                total += data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
        }
        return total
    }

    /// The events of a sealed chunk, and how many of its lines could not be read as valid events;
    /// `nil` when the chunk is gone (another relay sent it).
    public func read(chunk name: String) throws(EventBufferError) -> (events: [EventPayload], unreadable: Int)? {
        let data: Data?
        do {
            data = try DurableFile.contents(of: "\(queuePath)/\(name)")
        } catch {
            throw Self.storage(error)
        }
        guard let data else { return nil }
        var events: [EventPayload] = []
        var unreadable = 0
        let decoder = JSONDecoder()
        for line in Self.lines(Array(data)) {
            if let event = try? decoder.decode(EventPayload.self, from: Data(line)), EventRules.problem(with: event) == nil {
                events.append(event)
            } else {
                unreadable += 1
            }
        }
        return (events, unreadable)
    }

    /// Deletes a sent chunk, counting `dropped` of its events (unreadable lines, events the server
    /// refused whole) as dropped; a chunk already gone is fine.
    public func remove(chunk name: String, dropped: Int = 0) throws(EventBufferError) {
        let path = "\(queuePath)/\(name)"
        if unlink(path) != 0 {
            guard errno == ENOENT else { throw Self.storage(DurableFile.failure("unlink", path)) }
            return
        }
        if dropped > 0 { try addDropped(dropped) }
    }

    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    }

    /// How many events a sealed chunk holds, read from its name.
    public static func eventCount(ofChunk name: String) -> Int {
        let parts = name.split(separator: "-", maxSplits: 2)
        return parts.count == 3 ? Int(parts[1]) ?? 0 : 0
    }

    // MARK: Limits and drops

    private func checkLimitsIfDue() throws(EventBufferError) {
        let due = sealsSinceCheck.withLock { count in
            count += 1
            guard count >= limits.checkInterval else { return false }
            count = 0
            return true
        }
        if due { try enforceLimits() }
    }

    /// Deletes the oldest sealed chunks while the queue is over its limits, counting their events
    /// as dropped; how many events went. Sealing checks every ``EventBufferLimits/checkInterval``
    /// chunks; the relay before every flush.
    @discardableResult
    public func enforceLimits() throws(EventBufferError) -> Int {
        do {
            return try lock.withExclusiveLock { () throws(EventBufferError) -> Int in
                let names = try sealedChunks()
                var events = names.reduce(0) { $0 + Self.eventCount(ofChunk: $1) }
                var sizes: [Int] = []
                var bytes = 0
                for name in names {
                    var info = stat()
                    let size = stat("\(queuePath)/\(name)", &info) == 0 ? Int(info.st_size) : 0
                    sizes.append(size)
                    bytes += size
                }
                var dropped = 0
                var index = 0
                while index < names.count, events > limits.maximumEvents || bytes > limits.maximumBytes {
                    let count = Self.eventCount(ofChunk: names[index])
                    if unlink("\(queuePath)/\(names[index])") == 0 { dropped += count }
                    events -= count
                    bytes -= sizes[index]
                    index += 1
                }
                if dropped > 0 { try addDroppedLocked(dropped) }
                return dropped
            }
        } catch let error as EventBufferError {
            throw error
        } catch {
            throw Self.storage(error)
        }
    }

    /// The drops not yet reported, under the id they are reported with; `nil` when there are none.
    public func pendingDropReport() throws(EventBufferError) -> DroppedEvents? {
        let counter = try readCounter()
        return counter.count > 0 ? DroppedEvents(id: counter.reportId, count: counter.count) : nil
    }

    /// Forgets the drops of a report the server accepted; drops counted since stay, under a new id.
    public func confirmDropReport(_ report: DroppedEvents) throws(EventBufferError) {
        try withLock { () throws(EventBufferError) in
            var counter = try readCounter()
            guard counter.reportId == report.id else { return }
            counter.count = max(0, counter.count - report.count)
            counter.reportId = EventID.make(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
            try writeCounter(counter)
        }
    }

    /// How many events this buffer has dropped and not yet reported.
    public func droppedCount() throws(EventBufferError) -> Int { try readCounter().count }

    private func addDropped(_ count: Int) throws(EventBufferError) {
        try withLock { () throws(EventBufferError) in try addDroppedLocked(count) }
    }

    private func addDroppedLocked(_ count: Int) throws(EventBufferError) {
        var counter = try readCounter()
        counter.count += count
        try writeCounter(counter)
    }

    private struct Counter: Codable {
        var count: Int
        var reportId: String
    }

    private func readCounter() throws(EventBufferError) -> Counter {
        let data: Data?
        do {
            data = try DurableFile.contents(of: counterPath)
        } catch {
            throw Self.storage(error)
        }
        // NB: a counter that cannot be read starts again from zero: it only counts losses, it holds none.
        if let data, let counter = try? JSONDecoder().decode(Counter.self, from: data), counter.count >= 0,
            EventRules.isCanonicalUUID(counter.reportId)
        {
            return counter
        }
        return Counter(count: 0, reportId: EventID.make(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
    }

    private func writeCounter(_ counter: Counter) throws(EventBufferError) {
        do {
            try DurableFile.replace(counterPath, with: try JSONEncoder().encode(counter), permissions: 0o600)
        } catch let error as FileSystemError {
            throw Self.storage(error)
        } catch {
            throw EventBufferError(.storageFailed, "the drop counter cannot be encoded: \(error)")
        }
    }

    private func withLock(_ body: () throws(EventBufferError) -> Void) throws(EventBufferError) {
        do {
            try lock.withExclusiveLock(body)
        } catch let error as EventBufferError {
            throw error
        } catch {
            throw Self.storage(error)
        }
    }

    // MARK: Directory

    static func names(in path: String) throws(EventBufferError) -> [String] {
        guard let stream = opendir(path) else { throw storage(DurableFile.failure("opendir", path)) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func storage(_ error: any Error) -> EventBufferError {
        EventBufferError(.storageFailed, "the event buffer's files cannot be used: \(error)")
    }
}

/// Closes a file descriptor (the buffer has a `close()` of its own).
private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(fd)
    #elseif canImport(Darwin)
        _ = Darwin.close(fd)
    #endif
}
