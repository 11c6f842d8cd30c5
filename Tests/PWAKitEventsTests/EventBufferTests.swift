import Foundation
import PWAKitAPI
import PWAKitEvents
import PWAKitRetry
import Testing

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

    @Test("recorded events are queued oldest first, read back as recorded, and removed once sent")
    func recordAndRead() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            var random = SeededRandom(seed: 2)
            let events = (0..<20).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64(20 - $0), random: &random) }
            for event in events { try buffer.record(event) }
            let names = try buffer.pending()
            #expect(names.count == 20)
            let read = try buffer.read(names)
            #expect(read.map(\.event) == events.reversed())
            try buffer.remove(Array(names.prefix(5)))
            try buffer.remove(Array(names.prefix(5)))
            #expect(try buffer.count() == 15)
            // Another process opening the same directory sees the same queue.
            #expect(try EventBuffer(directory: directory).pending() == Array(names.dropFirst(5)))
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

    @Test("a file that is not an event is moved aside and counted as dropped; it holds back nothing")
    func corruptFiles() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            var random = SeededRandom(seed: 4)
            try buffer.record(sampleEvent(0, random: &random))
            let queue = directory.appendingPathComponent("queue")
            try Data("{\"id\": 5".utf8).write(to: queue.appendingPathComponent("0000000000001-torn.json"))
            try Data("{}".utf8).write(to: queue.appendingPathComponent("0000000000002-empty.json"))
            let read = try buffer.read(try buffer.pending())
            #expect(read.count == 1)
            #expect(try buffer.count() == 1)
            #expect(try buffer.droppedCount() == 2)
            let report = try #require(try buffer.pendingDropReport())
            #expect(report.count == 2)
            try buffer.confirmDropReport(report)
            #expect(try buffer.pendingDropReport() == nil)
            let moved = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("corrupt").path)
            #expect(moved.count == 2)
        }
    }

    @Test("over its limits the buffer drops its oldest events and counts them")
    func limits() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory, limits: EventBufferLimits(maximumEvents: 50, checkInterval: 10))
            var random = SeededRandom(seed: 5)
            let events = (0..<120).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64($0), random: &random) }
            for event in events { try buffer.record(event) }
            #expect(try buffer.count() == 50)
            #expect(try buffer.droppedCount() == 70)
            let kept = try buffer.read(try buffer.pending()).map(\.event)
            #expect(kept == Array(events.suffix(50)))
            let bytes = try EventBuffer(directory: directory, limits: EventBufferLimits(maximumBytes: 4096))
            #expect(try bytes.enforceLimits() > 0)
            #expect(try bytes.count() < 50)
        }
    }

    @Test("a drop counted after a report was sent survives that report's confirmation")
    func dropsDuringAReport() throws {
        try withBufferDirectory { directory in
            let buffer = try EventBuffer(directory: directory)
            try Data("x".utf8).write(to: directory.appendingPathComponent("queue/0000000000001-a.json"))
            _ = try buffer.read(try buffer.pending())
            let report = try #require(try buffer.pendingDropReport())
            try Data("x".utf8).write(to: directory.appendingPathComponent("queue/0000000000002-b.json"))
            _ = try buffer.read(try buffer.pending())
            try buffer.confirmDropReport(report)
            try buffer.confirmDropReport(report)
            let next = try #require(try buffer.pendingDropReport())
            #expect(next.count == 1)
            #expect(next.id != report.id)
        }
    }

    @Test("temporary files a killed writer left behind are cleared; fresh ones are not")
    func staleStaging() throws {
        try withBufferDirectory { directory in
            _ = try EventBuffer(directory: directory)
            let staging = directory.appendingPathComponent("staging")
            let stale = staging.appendingPathComponent("old.tmp")
            let fresh = staging.appendingPathComponent("new.tmp")
            try Data("x".utf8).write(to: stale)
            try Data("x".utf8).write(to: fresh)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: stale.path)
            _ = try EventBuffer(directory: directory)
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(FileManager.default.fileExists(atPath: fresh.path))
        }
    }

    @Test("many threads recording at once lose nothing")
    func concurrentRecording() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
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
        #expect(Set(try buffer.read(try buffer.pending()).map(\.event.id)) == Set(ids))
    }
}
