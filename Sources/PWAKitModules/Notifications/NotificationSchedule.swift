public import Foundation
public import PWAKitErrors

/// The pending local notifications and when each fires next: a pure value that the
/// scheduler drives with its clock, so every rule here is tested without waiting.
public struct NotificationSchedule: Sendable {
    /// How many notifications may be pending at once (iOS's limit).
    public static let limit = 64

    private var entries: [String: PendingNotification] = [:]
    private let calendar: Calendar

    /// An empty schedule computing calendar triggers in `calendar` (its time zone is the
    /// user's local time).
    public init(calendar: Calendar = .current) {
        self.calendar = calendar
    }

    /// A schedule holding `entries` as saved by an earlier run (the first `limit` of them, by id).
    public init(calendar: Calendar = .current, restoring entries: [PendingNotification]) {
        self.calendar = calendar
        for entry in entries.prefix(Self.limit) { self.entries[entry.notification.id] = entry }
    }

    /// The pending notifications, soonest first (ties by id).
    public var pending: [PendingNotification] {
        entries.values.sorted { ($0.nextFireDate, $0.notification.id) < ($1.nextFireDate, $1.notification.id) }
    }

    /// When the soonest notification fires.
    public var nextFireDate: Date? {
        entries.values.map(\.nextFireDate.date).min()
    }

    /// Adds `notification` (replacing a pending one with its id) scheduled at `now`.
    ///
    /// Fails with `notifications.invalid_trigger` when the trigger never fires after `now`
    /// (a date in the past, a calendar match that cannot occur) and
    /// `notifications.too_many_pending` at the limit.
    public mutating func add(_ notification: LocalNotification, now: Date) throws(ScheduleError) -> PendingNotification {
        guard let first = firstFireDate(of: notification.trigger, after: now) else {
            throw ScheduleError.neverFires
        }
        if entries[notification.id] == nil, entries.count >= Self.limit {
            throw ScheduleError.tooManyPending
        }
        let entry = PendingNotification(notification: notification, nextFireDate: ISODate(first))
        entries[notification.id] = entry
        return entry
    }

    /// Removes the notification `id`; whether one was pending.
    public mutating func cancel(_ id: String) -> Bool {
        entries.removeValue(forKey: id) != nil
    }

    /// Removes every pending notification.
    public mutating func cancelAll() {
        entries.removeAll()
    }

    /// Takes the notifications due at `now`, soonest first; repeating ones are rescheduled
    /// for their next occurrence after `now` (missed occurrences fire once, not in a burst).
    public mutating func takeDue(now: Date) -> [LocalNotification] {
        let due = pending.filter { $0.nextFireDate.date <= now }
        for entry in due {
            let notification = entry.notification
            if notification.trigger.repeats,
                let next = nextFireDate(of: notification.trigger, after: entry.nextFireDate.date, now: now)
            {
                entries[notification.id] = PendingNotification(notification: notification, nextFireDate: ISODate(next))
            } else {
                entries[notification.id] = nil
            }
        }
        return due.map(\.notification)
    }

    func firstFireDate(of trigger: NotificationTrigger, after now: Date) -> Date? {
        switch trigger {
        case .timeInterval(let interval): now.addingTimeInterval(interval.seconds)
        case .date(let date): date.date.date > now ? date.date.date : nil
        case .calendar(let components): nextMatch(components, after: now)
        }
    }

    private func nextFireDate(of trigger: NotificationTrigger, after last: Date, now: Date) -> Date? {
        switch trigger {
        case .timeInterval(let interval):
            // Skip occurrences missed while the host was not running.
            let missed = max(0, (now.timeIntervalSince(last) / interval.seconds).rounded(.down))
            return last.addingTimeInterval((missed + 1) * interval.seconds)
        case .date:
            return nil
        case .calendar(let components):
            return nextMatch(components, after: max(now, last))
        }
    }

    private func nextMatch(_ trigger: CalendarTrigger, after date: Date) -> Date? {
        var components = DateComponents()
        components.hour = trigger.hour
        components.minute = trigger.minute
        components.second = trigger.second ?? (trigger.minute != nil || trigger.hour != nil ? 0 : nil)
        components.weekday = trigger.weekday
        components.day = trigger.day
        components.month = trigger.month
        components.year = trigger.year
        if trigger.hour != nil, trigger.minute == nil { components.minute = 0 }
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .strict)
    }
}

/// Why a notification could not be scheduled: a struct that can grow, with stable codes.
public struct ScheduleError: CodedError, Hashable {
    /// The stable code.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code as written (`never_fires`).
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Its trigger never fires after now.
        public static let neverFires = Code(rawValue: "never_fires")
        /// The schedule is full.
        public static let tooManyPending = Code(rawValue: "too_many_pending")
        /// The system's scheduler refused it (Apple: UNUserNotificationCenter's error).
        public static let rejected = Code(rawValue: "rejected")
    }

    /// The code.
    public let code: Code
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The trigger never fires after now.
    public static let neverFires = ScheduleError(.neverFires, "this trigger never fires after now")
    /// The schedule is full.
    public static let tooManyPending = ScheduleError(
        .tooManyPending, "\(NotificationSchedule.limit) notifications are already pending")
    /// The system's scheduler refused it, for `reason`.
    public static func rejected(_ reason: String) -> ScheduleError {
        ScheduleError(.rejected, "the system refused it: \(reason)")
    }

    /// `schedule.<code>`.
    public var codeName: String { "schedule.\(code.rawValue)" }
    /// `schedule.<code>: <message>`.
    public var description: String { "\(codeName): \(message)" }
}
