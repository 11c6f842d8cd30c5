import Foundation
import PWAKitCore

extension SimulatedDevice: NotificationProvider {
    /// The scripted state (`not_determined` until asked).
    public func permissionState() -> NotificationPermissionState { notificationPermission }

    /// Asks the simulated user, who allows notifications unless scripted otherwise.
    public func requestPermission() -> NotificationPermissionState {
        if notificationPermission == .notDetermined {
            notificationPermission = notificationAnswer
            record("notifications.requestPermission \(notificationPermission.rawValue)")
        }
        return notificationPermission
    }

    /// There is no push service behind a simulated device.
    public func pushSubscription() throws -> PushSubscription {
        throw BridgeError(.module("notifications", "push_unavailable"), "the simulated device has no push service")
    }

    /// Records the notification.
    public func present(_ notification: LocalNotification) {
        presented.append(notification)
        record("notifications.present \(notification.id)")
    }

    /// Sets the notification permission and the answer to the next request.
    public func setNotificationPermission(_ state: NotificationPermissionState, answer: NotificationPermissionState = .granted) {
        notificationPermission = state
        notificationAnswer = answer
    }

    /// The notifications shown so far.
    public var presentedNotifications: [LocalNotification] { presented }
}

extension SimulatedDevice: ClipboardProvider {
    /// Keeps `text` in memory.
    public func write(_ text: String) {
        clipboard = text
        record("clipboard.write \(text.utf8.count) bytes")
    }

    /// The text kept in memory.
    public func read() -> String? { clipboard }
}

extension SimulatedDevice: PrintProvider {
    /// The simulated device has a printer that accepts every job.
    public func canPrint() -> Bool { true }

    /// Records the job.
    public func print(jobName: String) -> Bool {
        record("print.print \(jobName)")
        return true
    }
}

/// A ``SecureStore`` in memory: for tests and simulated hosts; nothing survives the process.
public actor InMemorySecureStore: SecureStore {
    private var values: [String: [String: String]] = [:]

    /// An empty store.
    public init() {}

    /// `memory`.
    public nonisolated var backend: String { "memory (simulated; nothing is persisted)" }

    /// Stores the value.
    public func set(_ value: String, for key: String, app: String) { values[app, default: [:]][key] = value }

    /// The value.
    public func value(for key: String, app: String) -> String? { values[app]?[key] }

    /// Removes the value.
    public func delete(_ key: String, app: String) -> Bool { values[app]?.removeValue(forKey: key) != nil }
}
