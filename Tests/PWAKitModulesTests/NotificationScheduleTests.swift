import Foundation
import PWAKitCore
import PWAKitModules
import PWAKitTesting
import Testing

@Suite struct NotificationScheduleTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static let monday9am = ISODate(parsing: "2026-11-23T09:00:00Z")!.date

    func note(_ id: String, _ trigger: NotificationTrigger) -> LocalNotification {
        LocalNotification(id: id, title: "t-\(id)", trigger: trigger)
    }

    @Test func intervalsFireOnceOrRepeatWithoutBursts() throws {
        var schedule = NotificationSchedule(calendar: Self.utc)
        let now = Self.monday9am
        _ = try schedule.add(note("once", .timeInterval(.init(seconds: 30))), now: now)
        _ = try schedule.add(note("hourly", .timeInterval(.init(seconds: 3600, repeats: true))), now: now)
        #expect(schedule.nextFireDate == now.addingTimeInterval(30))
        let early = schedule.takeDue(now: now.addingTimeInterval(29))
        #expect(early.isEmpty)
        let due = schedule.takeDue(now: now.addingTimeInterval(30))
        #expect(due.map(\.id) == ["once"])
        #expect(schedule.pending.map(\.notification.id) == ["hourly"])
        // Five hours pass while the host is closed: the hourly one fires once, then resumes on its grid.
        let later = schedule.takeDue(now: now.addingTimeInterval(5 * 3600 + 10))
        #expect(later.map(\.id) == ["hourly"])
        #expect(schedule.nextFireDate == now.addingTimeInterval(6 * 3600))
    }

    @Test func datesMustLieAheadAndCalendarTriggersFindTheNextMatch() throws {
        var schedule = NotificationSchedule(calendar: Self.utc)
        let now = Self.monday9am
        #expect(throws: ScheduleError.neverFires) {
            try schedule.add(self.note("past", .date(.init(date: ISODate(now.addingTimeInterval(-1))))), now: now)
        }
        let daily = try schedule.add(note("standup", .calendar(.init(hour: 9, minute: 30, repeats: true))), now: now)
        #expect(daily.nextFireDate.text == "2026-11-23T09:30:00Z")
        let friday = try schedule.add(note("friday", .calendar(.init(hour: 17, weekday: 6))), now: now)
        #expect(friday.nextFireDate.text == "2026-11-27T17:00:00Z")
        #expect(throws: ScheduleError.neverFires) {
            try schedule.add(self.note("gone", .calendar(.init(month: 1, year: 2020))), now: now)
        }
        let standup = schedule.takeDue(now: ISODate(parsing: "2026-11-23T09:30:00Z")!.date)
        #expect(standup.map(\.id) == ["standup"])
        #expect(schedule.pending.first { $0.notification.id == "standup" }?.nextFireDate.text == "2026-11-24T09:30:00Z")
    }

    @Test func anIdReplacesItsPendingNotificationAndTheScheduleHasALimit() throws {
        var schedule = NotificationSchedule(calendar: Self.utc)
        let now = Self.monday9am
        for index in 0..<NotificationSchedule.limit {
            _ = try schedule.add(note("n\(index)", .timeInterval(.init(seconds: Double(index + 1)))), now: now)
        }
        #expect(throws: ScheduleError.tooManyPending) {
            try schedule.add(self.note("one-more", .timeInterval(.init(seconds: 1))), now: now)
        }
        _ = try schedule.add(note("n0", .timeInterval(.init(seconds: 500))), now: now)
        #expect(schedule.pending.count == NotificationSchedule.limit)
        let first = schedule.cancel("n0")
        let second = schedule.cancel("n0")
        #expect(first && !second)
        schedule.cancelAll()
        #expect(schedule.pending.isEmpty && schedule.nextFireDate == nil)
    }

    @Test func theSchedulerDeliversOnItsClockWithoutWaiting() async throws {
        let clock = ManualWallClock(now: Self.monday9am)
        let delivered = Delivered()
        let scheduler = NotificationScheduler(clock: clock, calendar: Self.utc) { await delivered.add($0.id) }
        _ = try await scheduler.add(note("a", .timeInterval(.init(seconds: 60))))
        _ = try await scheduler.add(note("b", .timeInterval(.init(seconds: 120))))
        #expect(await scheduler.cancel("b"))
        clock.advance(by: 60)
        await scheduler.fireDue()
        #expect(await delivered.ids == ["a"])
        #expect(await scheduler.pending.isEmpty)
        await scheduler.stop()
    }

    @Test func triggerRangesAreCheckedWithTheFieldAtFault() async throws {
        let harness = try await ModuleHarness()
        _ = try await harness.data("notifications", "requestPermission")
        func schedule(_ trigger: JSONValue, extra: [String: JSONValue] = [:]) async throws -> JSONValue {
            var payload: [String: JSONValue] = ["id": "x", "title": "T", "trigger": trigger]
            payload.merge(extra) { _, new in new }
            return try await harness.call("notifications", "schedule", .object(payload))
        }
        let cases: [(JSONValue, String)] = [
            (["type": "timeInterval", "seconds": 0], "payload.trigger.seconds"),
            (["type": "timeInterval", "seconds": 30, "repeats": true], "payload.trigger.seconds"),
            (["type": "calendar", "weekday": 8], "payload.trigger.weekday"),
            (["type": "calendar", "hour": 24], "payload.trigger.hour"),
            (["type": "calendar", "month": 0], "payload.trigger.month"),
            (["type": "calendar"], "payload.trigger"),
            (["type": "calendar", "year": 2030, "repeats": true], "payload.trigger.year"),
            (["type": "date", "date": "tomorrow"], "payload.trigger.date"),
            (["type": "weekly"], "payload.trigger.type"),
            (["seconds": 5], "payload.trigger.type"),
        ]
        for (trigger, path) in cases {
            let response = try await schedule(trigger)
            #expect(response["code"] == "invalid_payload", "\(JSONSerializer.serialize(trigger))")
            #expect(response["details"]?["path"]?.stringValue == path, "\(JSONSerializer.serialize(response))")
        }
        let past = try await schedule(["type": "date", "date": "2001-01-01T00:00:00Z"])
        #expect(past["code"] == "notifications.invalid_trigger")
        #expect(
            try await schedule(["type": "timeInterval", "seconds": 5], extra: ["badge": -1])["details"]?["path"]
                == "payload.badge")
        #expect(
            try await schedule(["type": "timeInterval", "seconds": 5], extra: ["title": ""])["details"]?["path"]
                == "payload.title")
    }

    @Test func schedulingNeedsPermission() async throws {
        let harness = try await ModuleHarness()
        let payload: JSONValue = ["id": "x", "title": "T", "trigger": ["type": "timeInterval", "seconds": 5]]
        #expect(try await harness.code("notifications", "schedule", payload) == "notifications.permission_denied")
        await harness.device.setNotificationPermission(.denied)
        #expect(try await harness.data("notifications", "requestPermission")?["state"] == "denied")
        #expect(try await harness.code("notifications", "schedule", payload) == "notifications.permission_denied")
        // With no notification service running now, it is still scheduled, and the answer says delivery waits.
        await harness.device.setNotificationPermission(.unavailable)
        let deferred = try await harness.data("notifications", "schedule", payload)
        #expect(deferred?["deferred"] == true)
        #expect(deferred?["success"] == true)
    }
}

actor Delivered {
    var ids: [String] = []
    func add(_ id: String) { ids.append(id) }
}

/// PWAKitTesting's ``ManualClock`` as the notification scheduler's `WallClock`: it moves only when
/// told, and sleepers wait until it passes their date.
struct ManualWallClock: WallClock {
    let clock: ManualClock

    init(now: Date) { clock = ManualClock(origin: now) }

    func now() -> Date { clock.date }

    func advance(by seconds: TimeInterval) { clock.advance(seconds: seconds) }

    func sleep(until date: Date) async throws {
        let wait = date.timeIntervalSince(clock.date)
        try await clock.sleep(until: clock.now.advanced(by: .nanoseconds(Int64((max(0, wait) * 1e9).rounded()))))
    }
}
