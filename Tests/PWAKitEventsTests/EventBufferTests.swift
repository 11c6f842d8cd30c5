import Foundation
import PWAKitAPI
import PWAKitEvents
import PWAKitRetry
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh buffer directory, removed afterwards.
func withBufferDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}

func sampleEvent(_ index: Int, timestamp: Int64 = 1_800_000_000_000, random: inout SeededRandom) -> EventPayload {
    EventPayload(
        id: EventID.make(milliseconds: timestamp, using: &random), name: "screen_view", timestamp: timestamp, source: "app",
        properties: ["index": .number(Double(index)), "screen": .string("home"), "signed_in": .bool(true)])
}

@Suite("Event ids and the event buffer")
struct EventBufferTests {
    @Test("event ids are version-7 UUIDs in lowercase canonical form that sort by time")
    func eventIDs() {
        var random = SeededRandom(seed: 1)
        var previous = ""
        for millisecond in stride(from: Int64(1_700_000_000_000), to: 1_700_000_001_000, by: 7) {
            let id = EventID.make(milliseconds: millisecond, using: &random)
            #expect(EventRules.isCanonicalUUID(id))
            let characters = Array(id)
            #expect(characters[14] == "7")
            #expect("89ab".contains(characters[19]))
            #expect(id > previous)
            previous = id
        }
        let parsed = UUID(uuidString: EventID.make(milliseconds: 1_700_000_000_000))
        #expect(parsed != nil)
    }

    /// Every event in the sealed chunks, oldest chunk first.
    static func sealedEvents(_ buffer: EventBuffer) throws -> [EventPayload] {
        try buffer.sealedChunks().flatMap { try buffer.read(chunk: $0)?.events ?? [] }
    }

    @Test("recorded events are sealed in chunks, read back as recorded, and removed once sent")
    func recordAndRead() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory, limits: EventBufferLimits(chunkCapacity: 8, chunkAge: 3600))
            var random = SeededRandom(seed: 2)
            let events = (0..<20).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64($0), random: &random) }
            for event in events { try buffer.record(event) }
            #expect(try buffer.sealedChunks().count == 2)
            #expect(try buffer.count() == 20)
            try buffer.close()
            let chunks = try buffer.sealedChunks()
            #expect(chunks.map(EventBuffer.eventCount(ofChunk:)) == [8, 8, 4])
            #expect(try Self.sealedEvents(buffer) == events)
            try buffer.remove(chunk: chunks[0])
            try buffer.remove(chunk: chunks[0])
            #expect(try buffer.count() == 12)
            // Another process opening the same directory sees the same queue.
            #expect(try EventBuffer(directory: directory).sealedChunks() == Array(chunks.dropFirst()))
        }
    }

    @Test("an event that breaks a rule is refused with the field at fault and nothing is queued")
    func invalidEvents() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            var random = SeededRandom(seed: 3)
            var event = sampleEvent(0, random: &random)
            let cases: [(inout EventPayload) -> Void] = [
                { $0.name = "Bad Name" }, { $0.id = "nope" }, { $0.timestamp = -1 }, { $0.source = "" },
                { $0.properties["Big"] = .bool(true) },
                { $0.properties["text"] = .string(String(repeating: "é", count: 600)) },
                { $0.properties["n"] = .number(.infinity) },
            ]
            let fields = ["name", "id", "timestamp", "source", "properties.Big", "properties.text", "properties.n"]
            for (change, field) in zip(cases, fields) {
                var broken = event
                change(&broken)
                let error = #expect(throws: EventBufferError.self) { try buffer.record(broken) }
                #expect(error?.code == .invalidEvent)
                #expect(error?.field == field)
            }
            event.properties = [:]
            try buffer.record(event)
            #expect(try buffer.count() == 1)
        }
    }

    @Test("lines that are not events are skipped and counted as dropped when their chunk goes; they hold back nothing")
    func corruptLines() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            var random = SeededRandom(seed: 4)
            let good = sampleEvent(0, random: &random)
            let line = String(decoding: try JSONEncoder().encode(good), as: UTF8.self)
            let name = "1800000000000-3-\(UUID().uuidString.lowercased()).chunk"
            try Data("{\"id\": 5\n\(line)\n{}\n".utf8).write(to: directory.appendingPathComponent("queue/\(name)"))
            let read = try #require(try buffer.read(chunk: name))
            #expect(read.events == [good])
            #expect(read.unreadable == 2)
            try buffer.remove(chunk: name, dropped: read.unreadable)
            #expect(try buffer.droppedCount() == 2)
            let report = try #require(try buffer.pendingDropReport())
            #expect(report.count == 2)
            try buffer.confirmDropReport(report)
            #expect(try buffer.pendingDropReport() == nil)
            #expect(try buffer.read(chunk: name) == nil)
        }
    }

    @Test("a killed process's chunk is cut back to its last complete line and sealed; a live one's is left alone")
    func abandonedChunks() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            var random = SeededRandom(seed: 6)
            let events = (0..<2).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64($0), random: &random) }
            let lines = try events.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n" }
            let open = directory.appendingPathComponent("open")
            try Data((lines.joined() + "{\"id\":\"torn").utf8).write(to: open.appendingPathComponent("dead.chunk"))
            try Data(lines[0].utf8).write(to: open.appendingPathComponent("alive.chunk"))
            try Data().write(to: open.appendingPathComponent("empty.chunk"))
            try Data().write(to: open.appendingPathComponent("fresh.creating"))
            try Data().write(to: open.appendingPathComponent("stale.creating"))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -600)],
                ofItemAtPath: open.appendingPathComponent("stale.creating").path)
            // The live owner holds its chunk's lock.
            let owner = Glibc.open(open.appendingPathComponent("alive.chunk").path, O_RDWR)
            defer { Glibc.close(owner) }
            #expect(flock(owner, LOCK_EX | LOCK_NB) == 0)

            #expect(try buffer.recoverAbandoned() == 1)
            #expect(try buffer.sealedChunks().map(EventBuffer.eventCount(ofChunk:)) == [2])
            #expect(try Self.sealedEvents(buffer) == events)
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: open.path))
            #expect(left == ["alive.chunk", "fresh.creating"])
        }
    }

    @Test("over its limits the buffer drops its oldest chunks and counts their events")
    func limits() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(
                directory: directory,
                limits: EventBufferLimits(maximumEvents: 50, chunkCapacity: 10, chunkAge: 3600, checkInterval: 1))
            var random = SeededRandom(seed: 5)
            let events = (0..<120).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64($0), random: &random) }
            for event in events { try buffer.record(event) }
            #expect(try buffer.count() == 50)
            #expect(try buffer.droppedCount() == 70)
            #expect(try Self.sealedEvents(buffer) == Array(events.suffix(50)))
            let bytes = try EventBuffer(directory: directory, limits: EventBufferLimits(maximumBytes: 4096))
            #expect(try bytes.enforceLimits() > 0)
            #expect(try bytes.count() < 50)
        }
    }

    @Test("a drop counted after a report was sent survives that report's confirmation")
    func dropsDuringAReport() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            let first = "1800000000000-1-a.chunk"
            let second = "1800000000001-1-b.chunk"
            for name in [first, second] { try Data("x\n".utf8).write(to: directory.appendingPathComponent("queue/\(name)")) }
            try buffer.remove(chunk: first, dropped: 1)
            let report = try #require(try buffer.pendingDropReport())
            try buffer.remove(chunk: second, dropped: 1)
            try buffer.confirmDropReport(report)
            try buffer.confirmDropReport(report)
            let next = try #require(try buffer.pendingDropReport())
            #expect(next.count == 1)
            #expect(next.id != report.id)
        }
    }

    @Test("a chunk older than its age is sealed at the next event; events of an open chunk are counted")
    func chunkAge() throws {
        try withBufferDirectory { directory in
            var random = SeededRandom(seed: 7)
            let patient = try EventBuffer(directory: directory, limits: EventBufferLimits(chunkAge: 3600))
            for index in 0..<3 { try patient.record(sampleEvent(index, random: &random)) }
            #expect(try patient.sealedChunks().isEmpty)
            #expect(try patient.count() == 3)
            try patient.seal()
            #expect(try patient.sealedChunks().count == 1)
            let eager = try EventBuffer(directory: directory, limits: EventBufferLimits(chunkAge: 0))
            for index in 0..<3 { try eager.record(sampleEvent(index, random: &random)) }
            #expect(try eager.sealedChunks().count == 4)
        }
    }

    @Test("many threads recording at once lose nothing")
    func concurrentRecording() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory, limits: EventBufferLimits(chunkCapacity: 16))
        let ids = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(writer) + 100)
                    var ids: [String] = []
                    for index in 0..<50 {
                        let event = sampleEvent(index, random: &random)
                        try buffer.record(event)
                        ids.append(event.id)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        try buffer.close()
        let stored = try Self.sealedEvents(buffer).map(\.id)
        #expect(stored.count == 400)
        #expect(Set(stored) == Set(ids))
    }
}
