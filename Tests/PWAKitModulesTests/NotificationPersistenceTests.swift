import Foundation
import PWAKitCore
import PWAKitModules
import Testing

/// Local notifications that wait for a notification service, and that outlive the host.
@Suite struct NotificationPersistenceTests {
    static let now = NotificationScheduleTests.monday9am

    func note(_ id: String, seconds: Double) -> LocalNotification {
        LocalNotification(id: id, title: "T \(id)", trigger: .timeInterval(TimeIntervalTrigger(seconds: seconds)))
    }

    static func temporaryFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-notes-\(UUID().uuidString)")
        return directory.appendingPathComponent("nested/notifications.json")
    }

    @Test func aDueNotificationWaitsForAServiceAndIsShownWhenOneRuns() async throws {
        let clock = ManualWallClock(now: Self.now)
        let service = Service()
        let scheduler = NotificationScheduler(clock: clock, calendar: NotificationScheduleTests.utc, retryInterval: 30) {
            try await service.show($0)
        }
        _ = try await scheduler.add(note("a", seconds: 60))
        _ = try await scheduler.add(note("b", seconds: 90))
        clock.advance(by: 60)
        await scheduler.fireDue()
        #expect(await service.shown.isEmpty)
        #expect(await scheduler.heldForDelivery.map(\.id) == ["a"])
        #expect(await scheduler.pending.map(\.id) == ["b"])
        // Cancelling reaches held notifications too.
        #expect(await scheduler.cancel("a"))
        #expect(await scheduler.heldForDelivery.isEmpty)
        _ = try await scheduler.add(note("c", seconds: 1))
        clock.advance(by: 1)
        await scheduler.fireDue()
        await service.start()
        // The retry wakes on the scheduler's clock: no real waiting.
        clock.advance(by: 30)
        for _ in 0..<10_000 where await service.shown.count < 2 { await Task.yield() }
        #expect(await service.shown == ["c", "b"])
        #expect(await scheduler.heldForDelivery.isEmpty)
        await scheduler.stop()
    }

    @Test func theScheduleAndHeldNotificationsSurviveARestart() async throws {
        let url = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = FileNotificationStore(url: url)
        let clock = ManualWallClock(now: Self.now)
        let first = NotificationScheduler(clock: clock, calendar: NotificationScheduleTests.utc, store: store) { _ in
            throw Unavailable()
        }
        _ = try await first.add(note("soon", seconds: 10))
        _ = try await first.add(note("later", seconds: 3600))
        _ = try await first.add(
            LocalNotification(
                id: "daily", title: "Daily", trigger: .calendar(CalendarTrigger(hour: 8, minute: 0, repeats: true))))
        clock.advance(by: 10)
        await first.fireDue()
        await first.stop()
        #expect(await first.heldForDelivery.map(\.id) == ["soon"])
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // The host quits; the next run reads the file back and shows what is due.
        let service = Service()
        await service.start()
        let second = NotificationScheduler(clock: clock, calendar: NotificationScheduleTests.utc, store: store) {
            try await service.show($0)
        }
        #expect(await second.pending.map(\.id) == ["later", "daily"])
        #expect(await second.heldForDelivery.map(\.id) == ["soon"])
        clock.advance(by: 3600)
        await second.fireDue()
        #expect(await service.shown == ["soon", "later"])
        await second.stop()
        let third = NotificationScheduler(clock: clock, calendar: NotificationScheduleTests.utc, store: store) { _ in }
        #expect(await third.pending.map(\.id) == ["daily"])
        #expect(await third.heldForDelivery.isEmpty)
        await third.stop()
    }

    @Test func anUnreadableStoreIsSetAsideUnchangedAndANewOneStarts() async throws {
        let url = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // As ShareOutbox does: `rejected/` beside the file, the bytes and a `.reason`.
        let rejected = url.deletingLastPathComponent().appendingPathComponent("rejected")
        for garbage in ["not json", #"{"pending":[{"id":1}],"held":[]}"#, String(repeating: "[", count: 10_000)] {
            try Data(garbage.utf8).write(to: url)
            let errors = Errors()
            let scheduler = NotificationScheduler(
                clock: ManualWallClock(now: Self.now), store: FileNotificationStore(url: url),
                onStoreError: { errors.add($0) }
            ) { _ in }
            #expect(await scheduler.pending.isEmpty)
            #expect(errors.all.count == 1 && errors.all[0].contains("could not be read"), "\(errors.all)")
            // Before anything is saved, the bytes are already out of the way, unchanged.
            #expect(!FileManager.default.fileExists(atPath: url.path))
            let names = try FileManager.default.contentsOfDirectory(atPath: rejected.path).sorted()
            let moved = try #require(names.first { $0.hasPrefix("notifications-") && $0.hasSuffix(".json") }, "\(names)")
            #expect(errors.all[0].contains(moved), "\(errors.all)")
            #expect(names == [moved, String(moved.dropLast(5)) + ".reason"])
            #expect(try Data(contentsOf: rejected.appendingPathComponent(moved)) == Data(garbage.utf8))
            let reason = try String(
                contentsOf: rejected.appendingPathComponent(String(moved.dropLast(5)) + ".reason"), encoding: .utf8)
            #expect(reason.contains("could not be read"))
            // The new store works, and saving it leaves the set-aside file as it was.
            _ = try await scheduler.add(note("fresh", seconds: 60))
            await scheduler.stop()
            #expect(try FileNotificationStore(url: url).load()?.pending.map(\.id) == ["fresh"])
            #expect(try Data(contentsOf: rejected.appendingPathComponent(moved)) == Data(garbage.utf8))
            try FileManager.default.removeItem(at: rejected)
        }
    }

    @Test func anUnreadableStoreThatCannotBeSetAsideIsNeverOverwritten() async throws {
        let url = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(#"{"pending":[{"id":1}],"held":[]}"#.utf8)
        try garbage.write(to: url)
        // A file where the `rejected/` folder would go: nothing can be moved into it.
        try Data("in the way".utf8).write(to: url.deletingLastPathComponent().appendingPathComponent("rejected"))
        let errors = Errors()
        let scheduler = NotificationScheduler(
            clock: ManualWallClock(now: Self.now), store: FileNotificationStore(url: url), onStoreError: { errors.add($0) }
        ) { _ in }
        #expect(errors.all.count == 1 && errors.all[0].contains("could not be moved aside"), "\(errors.all)")
        _ = try await scheduler.add(note("fresh", seconds: 60))
        #expect(await scheduler.pending.map(\.id) == ["fresh"])
        _ = await scheduler.cancel("fresh")
        await scheduler.cancelAll()
        await scheduler.fireDue()
        await scheduler.stop()
        #expect(try Data(contentsOf: url) == garbage)
        #expect(errors.all.count == 1, "\(errors.all)")
    }

    @Test func scheduleSaysWhenDeliveryIsDeferred() async throws {
        let harness = try await ModuleHarness()
        await harness.device.setNotificationPermission(.unavailable)
        // NB: an hour ahead, so it is still pending when listed, however slow the machine.
        let payload: JSONValue = ["id": "x", "title": "T", "trigger": ["type": "timeInterval", "seconds": 3600]]
        let answer = try await harness.data("notifications", "schedule", payload)
        #expect(answer?["deferred"] == true)
        #expect(try await harness.data("notifications", "getPending")?["notifications"]?[0]?["id"] == "x")
    }
}

/// A notification service that is not running until started.
actor Service {
    private(set) var shown: [String] = []
    private var running = false
    func start() { running = true }
    func show(_ notification: LocalNotification) throws {
        guard running else { throw Unavailable() }
        shown.append(notification.id)
    }
}

struct Unavailable: Error {}

final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ text: String) { lock.withLock { stored.append(text) } }
    var all: [String] { lock.withLock { stored } }
}
