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
/// Each event is one immutable file: written under a temporary name in `staging/`, synced, then
/// renamed into `queue/` and the directory synced, so an event is either wholly queued or not at
/// all, whatever process is killed at whatever instant, and no writer ever appends to a file
/// another process reads. Files are named `<timestamp>-<id>.json`, so the queue lists oldest
/// first. A file that cannot be read as an event is moved to `corrupt/` and counted as dropped;
/// it never holds back the others. When the queue outgrows its ``EventBufferLimits`` the oldest
/// events are deleted and counted; the count is reported to the server with the next batch.
public final class EventBuffer: Sendable {
    /// The buffer's directory.
    public let directory: URL
    /// The limits.
    public let limits: EventBufferLimits
    private let lock: FileLock
    private let recordedSinceCheck = Mutex(0)

    /// Opens (creating) the buffer in `directory`; temporary files a killed writer left behind more
    /// than a minute ago are removed.
    public init(directory: URL, limits: EventBufferLimits = EventBufferLimits()) throws(EventBufferError) {
        self.directory = directory
        self.limits = limits
        do {
            for folder in ["queue", "staging", "corrupt"] {
                try DurableFile.makeDirectory(directory.appendingPathComponent(folder).path, permissions: 0o700)
            }
            lock = try FileLock(path: directory.appendingPathComponent("buffer.lock").path)
        } catch {
            throw Self.storage(error)
        }
        removeStaleStaging(olderThan: 60)
    }

    var queuePath: String { directory.appendingPathComponent("queue").path }
    var stagingPath: String { directory.appendingPathComponent("staging").path }
    var corruptPath: String { directory.appendingPathComponent("corrupt").path }
    var counterPath: String { directory.appendingPathComponent("dropped.json").path }

    // MARK: Recording

    /// Queues `event` durably: when this returns, the event survives a crash of this process or
    /// of the machine. An event already queued under the same id is replaced.
    ///
    /// - Throws: `invalid_event` naming the field at fault; `storage_failed`.
    public func record(_ event: EventPayload) throws(EventBufferError) {
        if let problem = EventRules.problem(with: event) {
            throw EventBufferError(.invalidEvent, problem.message, field: problem.field)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Self.encoder.encode(event))
        } catch {
            throw EventBufferError(.invalidEvent, "cannot be encoded: \(error)")
        }
        let temporary = "\(stagingPath)/\(event.id).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.storage(DurableFile.failure("open", temporary)) }
        guard DurableFile.writeAll(fd, bytes), fsync(fd) == 0 else {
            let error = DurableFile.failure("write", temporary)
            close(fd)
            unlink(temporary)
            throw Self.storage(error)
        }
        close(fd)
        do {
            try DurableFile.move(temporary, to: "\(queuePath)/\(Self.fileName(for: event))")
        } catch {
            unlink(temporary)
            throw Self.storage(error)
        }
        let due = recordedSinceCheck.withLock { count in
            count += 1
            guard count >= limits.checkInterval else { return false }
            count = 0
            return true
        }
        if due { try enforceLimits() }
    }

    /// The file name of a queued event: its timestamp (13 digits) and id, so names sort by time.
    static func fileName(for event: EventPayload) -> String {
        let digits = String(max(0, event.timestamp))
        return String(repeating: "0", count: max(0, 13 - digits.count)) + digits + "-" + event.id + ".json"
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Reading

    /// The names of up to `limit` queued events, oldest first.
    public func pending(limit: Int = .max) throws(EventBufferError) -> [String] {
        let names = try queuedNames()
        return Array(names.prefix(limit))
    }

    /// How many events are queued.
    public func count() throws(EventBufferError) -> Int { try queuedNames().count }

    /// The queued events named, in order; a file that cannot be read as a valid event is moved to
    /// `corrupt/` and counted as dropped, and one deleted meanwhile (sent by another relay) is
    /// skipped.
    public func read(_ names: [String]) throws(EventBufferError) -> [(name: String, event: EventPayload)] {
        var events: [(name: String, event: EventPayload)] = []
        var corrupt: [String] = []
        for name in names {
            let path = "\(queuePath)/\(name)"
            let data: Data?
            do {
                data = try DurableFile.contents(of: path)
            } catch {
                throw Self.storage(error)
            }
            guard let data else { continue }
            if let event = try? JSONDecoder().decode(EventPayload.self, from: data), EventRules.problem(with: event) == nil {
                events.append((name, event))
            } else {
                corrupt.append(name)
            }
        }
        if !corrupt.isEmpty { try quarantine(corrupt) }
        return events
    }

    /// Deletes sent events; names already gone are fine.
    public func remove(_ names: [String]) throws(EventBufferError) {
        for name in names where unlink("\(queuePath)/\(name)") != 0 && errno != ENOENT {
            throw Self.storage(DurableFile.failure("unlink", "\(queuePath)/\(name)"))
        }
    }

    /// Moves events that cannot be sent (unreadable, or refused whole by the server) to `corrupt/`
    /// and counts them as dropped.
    public func quarantine(_ names: [String]) throws(EventBufferError) {
        var moved = 0
        for name in names {
            if rename("\(queuePath)/\(name)", "\(corruptPath)/\(name)") == 0 {
                moved += 1
            } else if errno != ENOENT {
                throw Self.storage(DurableFile.failure("rename", "\(corruptPath)/\(name)"))
            }
        }
        if moved > 0 { try addDropped(moved) }
    }

    // MARK: Limits and drops

    /// Deletes the oldest events while the queue is over its limits, counting them as dropped;
    /// how many were deleted. Recording calls it every ``EventBufferLimits/checkInterval`` events.
    @discardableResult
    public func enforceLimits() throws(EventBufferError) -> Int {
        do {
            return try lock.withExclusiveLock { () throws(EventBufferError) -> Int in
                var names = try queuedNames()
                var sizes: [Int] = []
                sizes.reserveCapacity(names.count)
                var total = 0
                for name in names {
                    var info = stat()
                    let size = stat("\(queuePath)/\(name)", &info) == 0 ? Int(info.st_size) : 0
                    sizes.append(size)
                    total += size
                }
                var removed = 0
                var index = 0
                while index < names.count, names.count - index > limits.maximumEvents || total > limits.maximumBytes {
                    if unlink("\(queuePath)/\(names[index])") == 0 { removed += 1 }
                    total -= sizes[index]
                    index += 1
                }
                names.removeFirst(index)
                if removed > 0 { try addDroppedLocked(removed) }
                return removed
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

    private func queuedNames() throws(EventBufferError) -> [String] {
        try Self.names(in: queuePath).filter { $0.hasSuffix(".json") }.sorted()
    }

    private func removeStaleStaging(olderThan seconds: Double) {
        guard let names = try? Self.names(in: stagingPath) else { return }
        let now = Date()
        for name in names {
            let path = "\(stagingPath)/\(name)"
            if let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > seconds
            {
                unlink(path)
            }
        }
    }

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
