#if canImport(UserNotifications) && (os(iOS) || os(macOS))
    import Foundation
    import PWAKitCore
    public import PWAKitModules
    import UserNotifications

    /// The ``NotificationScheduling`` over `UNUserNotificationCenter`: the system fires local
    /// notifications, also while the app is not running.
    ///
    /// Triggers map one to one: `timeInterval` to `UNTimeIntervalNotificationTrigger`, `calendar`
    /// to `UNCalendarNotificationTrigger` (local time, the given components only), and `date` to a
    /// one-off interval from now, so the instant stays exact whatever the time zone does. The
    /// notification rides in the request's `userInfo`, so ``pending`` returns what was scheduled.
    public struct UserNotificationsScheduler: NotificationScheduling {
        /// A scheduler over the app's notification center.
        public init() {}

        /// Adds the request (the system replaces a pending one with the same id).
        ///
        /// Fails with ``ScheduleError/neverFires`` for a date that has passed or a calendar match
        /// that cannot occur, ``ScheduleError/tooManyPending`` when 64 other requests are pending
        /// (the system would silently drop the excess), and ``ScheduleError/rejected(_:)`` with the
        /// system's reason.
        public func add(_ notification: LocalNotification) async throws(ScheduleError) -> PendingNotification {
            let center = UNUserNotificationCenter.current()
            let now = Date()
            guard let trigger = Self.trigger(for: notification.trigger, now: now),
                let next = Self.nextFireDate(of: notification, trigger: trigger, scheduledAt: now, now: now)
            else { throw ScheduleError.neverFires }
            let requests = await center.pendingNotificationRequests()
            if requests.count >= NotificationSchedule.limit, !requests.contains(where: { $0.identifier == notification.id }) {
                throw ScheduleError.tooManyPending
            }
            do {
                let content = try notification.content(scheduledAt: now)
                try await center.add(UNNotificationRequest(identifier: notification.id, content: content, trigger: trigger))
            } catch {
                throw ScheduleError.rejected(error.localizedDescription)
            }
            guard let entry = Self.pending(notification, firesAt: next) else {
                throw ScheduleError.rejected("the scheduled notification could not be read back")
            }
            return entry
        }

        /// Removes the pending request `id`; whether there was one.
        public func cancel(_ id: String) async -> Bool {
            let center = UNUserNotificationCenter.current()
            let requests = await center.pendingNotificationRequests()
            guard requests.contains(where: { $0.identifier == id }) else { return false }
            center.removePendingNotificationRequests(withIdentifiers: [id])
            return true
        }

        /// Removes every pending request.
        public func cancelAll() async {
            UNUserNotificationCenter.current().removeAllPendingNotificationRequests()
        }

        /// The pending requests this scheduler made, soonest first (ties by id); requests that
        /// other code scheduled are left out.
        public var pending: [PendingNotification] {
            get async {
                let now = Date()
                let entries = await UNUserNotificationCenter.current().pendingNotificationRequests().compactMap {
                    request -> PendingNotification? in
                    let userInfo = request.content.userInfo
                    guard let notification = LocalNotification(userInfo: userInfo), let trigger = request.trigger,
                        let next = Self.nextFireDate(
                            of: notification, trigger: trigger,
                            scheduledAt: userInfo[LocalNotification.scheduledAtKey] as? Date ?? now, now: now)
                    else { return nil }
                    return Self.pending(notification, firesAt: next)
                }
                return entries.sorted {
                    ($0.nextFireDate, $0.notification.id) < ($1.nextFireDate, $1.notification.id)
                }
            }
        }

        /// The system trigger for `trigger`; `nil` when it never fires after `now`.
        static func trigger(for trigger: NotificationTrigger, now: Date) -> UNNotificationTrigger? {
            switch trigger {
            case .timeInterval(let interval):
                return UNTimeIntervalNotificationTrigger(timeInterval: interval.seconds, repeats: interval.repeats ?? false)
            case .date(let date):
                let seconds = date.date.date.timeIntervalSince(now)
                return seconds > 0 ? UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false) : nil
            case .calendar(let match):
                var components = DateComponents()
                components.hour = match.hour
                components.minute = match.minute
                components.second = match.second
                components.weekday = match.weekday
                components.day = match.day
                components.month = match.month
                components.year = match.year
                let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: match.repeats ?? false)
                return trigger.nextTriggerDate() == nil ? nil : trigger
            }
        }

        /// When a request fires next.
        ///
        /// NB: `UNTimeIntervalNotificationTrigger.nextTriggerDate()` counts from the moment it is
        /// asked, not from when the request was added, so interval triggers count from the
        /// scheduling time kept in `userInfo`.
        static func nextFireDate(
            of notification: LocalNotification, trigger: UNNotificationTrigger, scheduledAt: Date, now: Date
        ) -> Date? {
            switch notification.trigger {
            case .date(let date):
                return date.date.date
            case .timeInterval(let interval):
                let elapsed = max(0, now.timeIntervalSince(scheduledAt))
                let periods = interval.repeats == true ? max(1, (elapsed / interval.seconds).rounded(.up)) : 1
                return scheduledAt.addingTimeInterval(periods * interval.seconds)
            case .calendar:
                return (trigger as? UNCalendarNotificationTrigger)?.nextTriggerDate()
            }
        }

        static func pending(_ notification: LocalNotification, firesAt date: Date) -> PendingNotification? {
            PendingNotification(notification: notification, nextFireDate: ISODate(date))
        }
    }
#endif
