public import Foundation

/// Where `notifications.schedule` puts local notifications: ``NotificationScheduler`` in this
/// process (desktop hosts), or the system's notification center (the Apple adapter).
public protocol NotificationScheduling: Sendable {
    /// Schedules `notification` (an id already pending is replaced).
    func add(_ notification: LocalNotification) async throws(ScheduleError) -> PendingNotification
    /// Cancels `id`; whether it was pending.
    func cancel(_ id: String) async -> Bool
    /// Cancels everything pending.
    func cancelAll() async
    /// The pending notifications, soonest first.
    var pending: [PendingNotification] { get async }
}

/// Runs a ``NotificationSchedule`` against a clock while the host runs, handing each due
/// notification to `deliver`.
///
/// Scheduled notifications fire only while the process lives: a desktop has no system
/// service that would fire them later (the Apple adapter hands them to
/// UNUserNotificationCenter instead).
public actor NotificationScheduler: NotificationScheduling {
    private var schedule: NotificationSchedule
    private let clock: any WallClock
    private let deliver: @Sendable (LocalNotification) async -> Void
    private var runner: Task<Void, Never>?

    /// A scheduler over `clock` that calls `deliver` for each notification that falls due.
    public init(
        clock: any WallClock = SystemWallClock(), calendar: Calendar = .current,
        deliver: @escaping @Sendable (LocalNotification) async -> Void
    ) {
        self.schedule = NotificationSchedule(calendar: calendar)
        self.clock = clock
        self.deliver = deliver
    }

    /// Schedules `notification`; see ``NotificationSchedule/add(_:now:)``.
    public func add(_ notification: LocalNotification) throws(ScheduleError) -> PendingNotification {
        let entry = try schedule.add(notification, now: clock.now())
        restart()
        return entry
    }

    /// Cancels `id`; whether it was pending.
    public func cancel(_ id: String) -> Bool {
        defer { restart() }
        return schedule.cancel(id)
    }

    /// Cancels everything.
    public func cancelAll() {
        schedule.cancelAll()
        restart()
    }

    /// The pending notifications, soonest first.
    public var pending: [PendingNotification] { schedule.pending }

    /// Delivers whatever is due now; the run loop calls this, tests may too.
    public func fireDue() async {
        let due = schedule.takeDue(now: clock.now())
        for notification in due { await deliver(notification) }
    }

    /// Stops waiting for the next notification (pending ones stay pending).
    public func stop() {
        runner?.cancel()
        runner = nil
    }

    private func restart() {
        runner?.cancel()
        guard let next = schedule.nextFireDate else {
            runner = nil
            return
        }
        let clock = self.clock
        runner = Task { [weak self] in
            do {
                try await clock.sleep(until: next)
            } catch {
                return
            }
            guard let self else { return }
            await self.fireDue()
            await self.resume()
        }
    }

    private func resume() {
        restart()
    }
}

/// Wall-clock time, injectable so schedules are tested without waiting.
public protocol WallClock: Sendable {
    /// Now.
    func now() -> Date
    /// Returns at `date` (or at once when it has passed); throws when cancelled.
    func sleep(until date: Date) async throws
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps until `date`.
    public func sleep(until date: Date) async throws {
        let seconds = date.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}
