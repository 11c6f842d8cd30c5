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
/// A notification that cannot be shown when it falls due (no notification service is running
/// yet) is kept and offered again every ``retryInterval`` until one is. With a
/// ``NotificationStore`` the schedule and those held notifications are saved after every change
/// and read back at start, so they survive the host quitting; occurrences missed while it was
/// not running fire once when it starts again. (The Apple adapter hands notifications to
/// UNUserNotificationCenter instead.)
public actor NotificationScheduler: NotificationScheduling {
    /// How many due notifications are held for a notification service at most; the oldest go first.
    public static let heldLimit = NotificationSchedule.limit

    private var schedule: NotificationSchedule
    private var held: [LocalNotification]
    private let clock: any WallClock
    private let deliver: @Sendable (LocalNotification) async throws -> Void
    private let store: (any NotificationStore)?
    private let retryInterval: TimeInterval
    private var runner: Task<Void, Never>?

    /// A scheduler over `clock` that calls `deliver` for each notification that falls due; one
    /// whose `deliver` throws is held and offered again every `retryInterval` seconds. `store`
    /// keeps the schedule across runs; what it holds is loaded now. An unreadable store is
    /// reported through `onStoreError` and never overwritten: it is set aside unchanged
    /// (``NotificationStore/setAside(because:)``) and the schedule starts empty, or, when it
    /// cannot be set aside, nothing is saved for the rest of the run.
    public init(
        clock: any WallClock = SystemWallClock(), calendar: Calendar = .current, store: (any NotificationStore)? = nil,
        retryInterval: TimeInterval = 30, onStoreError: @escaping @Sendable (String) -> Void = { _ in },
        deliver: @escaping @Sendable (LocalNotification) async throws -> Void
    ) {
        var snapshot: NotificationStoreSnapshot?
        var store = store
        do {
            snapshot = try store?.load()
        } catch {
            let problem = "the saved notifications could not be read: \(error)"
            do {
                let aside = try store?.setAside(because: problem) ?? ""
                onStoreError("\(problem); they were moved unchanged to \(aside), and the schedule starts empty")
            } catch let setAsideError {
                // NB: saving now would destroy the only copy; this run keeps its schedule in memory.
                store = nil
                onStoreError(
                    "\(problem); they could not be moved aside (\(setAsideError)), so they are left as they are and "
                        + "nothing is saved until the host starts again")
            }
        }
        self.schedule = NotificationSchedule(calendar: calendar, restoring: snapshot?.pending ?? [])
        self.held = Array((snapshot?.held ?? []).suffix(Self.heldLimit))
        self.clock = clock
        self.deliver = deliver
        self.store = store
        self.retryInterval = retryInterval
        self.onStoreError = onStoreError
        if snapshot.map({ !$0.pending.isEmpty || !$0.held.isEmpty }) ?? false {
            Task { await self.resume() }
        }
    }

    private let onStoreError: @Sendable (String) -> Void

    /// Schedules `notification`; see ``NotificationSchedule/add(_:now:)``.
    public func add(_ notification: LocalNotification) throws(ScheduleError) -> PendingNotification {
        let entry = try schedule.add(notification, now: clock.now())
        changed()
        return entry
    }

    /// Cancels `id` (pending or held); whether it was either.
    public func cancel(_ id: String) -> Bool {
        defer { changed() }
        let heldBefore = held.count
        held.removeAll { $0.id == id }
        return schedule.cancel(id) || held.count != heldBefore
    }

    /// Cancels everything, held notifications included.
    public func cancelAll() {
        schedule.cancelAll()
        held.removeAll()
        changed()
    }

    /// The pending notifications, soonest first.
    public var pending: [PendingNotification] { schedule.pending }

    /// The notifications that fell due while no notification service could show them.
    public var heldForDelivery: [LocalNotification] { held }

    /// Delivers whatever is due now, and what was held; the run loop calls this, tests may too.
    public func fireDue() async {
        let due = held + schedule.takeDue(now: clock.now())
        held = []
        for notification in due {
            do {
                try await deliver(notification)
            } catch {
                held.removeAll { $0.id == notification.id }
                held.append(notification)
            }
        }
        if held.count > Self.heldLimit { held.removeFirst(held.count - Self.heldLimit) }
        save()
    }

    /// Stops waiting for the next notification (pending ones stay pending).
    public func stop() {
        runner?.cancel()
        runner = nil
    }

    private func changed() {
        save()
        restart()
    }

    private func save() {
        guard let store else { return }
        do {
            try store.save(NotificationStoreSnapshot(pending: schedule.pending, held: held))
        } catch {
            onStoreError("the notifications could not be saved: \(error)")
        }
    }

    private func restart() {
        runner?.cancel()
        var wake = schedule.nextFireDate
        if !held.isEmpty {
            let retry = clock.now().addingTimeInterval(retryInterval)
            wake = min(wake ?? retry, retry)
        }
        guard let next = wake else {
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

/// What a ``NotificationScheduler`` keeps across runs.
public struct NotificationStoreSnapshot: Codable, Sendable, Hashable {
    /// The pending notifications.
    public var pending: [PendingNotification]
    /// The due notifications held for a notification service.
    public var held: [LocalNotification]

    /// Creates a snapshot.
    public init(pending: [PendingNotification], held: [LocalNotification]) {
        self.pending = pending
        self.held = held
    }
}

/// Where a ``NotificationScheduler`` keeps its schedule across runs (the Linux host: a file in the
/// app's data directory, replaced crash-safely).
public protocol NotificationStore: Sendable {
    /// The saved snapshot; `nil` when nothing was saved.
    func load() throws -> NotificationStoreSnapshot?
    /// Saves `snapshot`, replacing what was saved.
    func save(_ snapshot: NotificationStoreSnapshot) throws
    /// Moves what is saved, which ``load()`` could not read, out of the way unchanged, with
    /// `reason`, so the next ``save(_:)`` starts afresh without destroying it; where it went, for
    /// the log. Throws when it could not be moved (the scheduler then saves nothing).
    func setAside(because reason: String) throws -> String
}

extension NotificationStore {
    /// A store that cannot move what it holds keeps it: this throws, and the scheduler then saves
    /// nothing for the rest of the run.
    public func setAside(because reason: String) throws -> String {
        throw ScheduleError(.rejected, "\(Self.self) cannot set aside what it holds, so it is kept and nothing is saved")
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
