public import PWAKitCore

/// `notifications` [features.notifications]: permission, push token, badge and local
/// notifications; incoming pushes reach the page as `push` events through ``PushRelay``.
public struct NotificationsModule: ActionModule {
    /// `notifications`.
    public static let moduleName = "notifications"
    /// `notifications`.
    public static let featureFlag: String? = "notifications"
    /// One line for the reference.
    public static let summary =
        "Notification permission, the push token, the badge, and local notifications scheduled by interval, date or calendar."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("notifications.permission_denied", "The user has not allowed notifications."),
        ModuleErrorCode("notifications.push_unavailable", "This host has no push service (Linux desktops have none)."),
        ModuleErrorCode("notifications.invalid_trigger", "The trigger never fires after now (e.g. a date in the past)."),
        ModuleErrorCode("notifications.too_many_pending", "64 notifications are already pending."),
        ModuleErrorCode("notifications.schedule_failed", "The system's notification center refused the request."),
        ModuleErrorCode("notifications.unavailable", "This host cannot show notifications."),
    ]

    /// `push`.
    public static func eventSchemas() throws(SchemaError) -> [EventSchema] {
        [
            try .declare(
                "push", data: PushEvent.self,
                summary: "A push notification arrived or was tapped; queued until the page has loaded.")
        ]
    }

    /// The actions.
    public static let actions = ModuleActions<NotificationsModule>()
        .action(
            "subscribe", result: PushSubscription.self,
            summary: "Asks for permission if not yet asked, then returns the push token."
        ) { module, _ in
            let state = try await module.provider.requestPermission()
            guard state == .granted else { throw denied(state) }
            return try await module.provider.pushSubscription()
        }
        .action(
            "requestPermission", result: NotificationPermission.self,
            summary: "Asks the user (once); returns the resulting state."
        ) { module, _ in
            NotificationPermission(state: try await module.provider.requestPermission())
        }
        .action("getToken", result: PushSubscription.self, summary: "The push token, when permission is granted.") {
            module, _ in
            let state = await module.provider.permissionState()
            guard state == .granted else { throw denied(state) }
            return try await module.provider.pushSubscription()
        }
        .action(
            "getPermissionState", result: NotificationPermission.self, summary: "The permission state, without asking."
        ) { module, _ in
            NotificationPermission(state: await module.provider.permissionState())
        }
        .action(
            "setBadge", payload: BadgeCount.self, result: NoResult.self, summary: "Sets the app icon's badge; 0 clears it.",
            example: BadgeCount(count: 1)
        ) { module, badge, _ in
            try await module.badge.setBadge(badge.count)
            return NoResult()
        }
        .action(
            "schedule", payload: LocalNotification.self, result: NotificationScheduled.self,
            summary:
                "Schedules a local notification (an existing id is replaced); with no notification service running now it is held and shown once one runs (`deferred`).",
            example: LocalNotification(
                id: "reminder", title: "Stand up", body: "You have been sitting for an hour",
                trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600)))
        ) { module, notification, _ in
            // NB: with no notification service running now the notification is still scheduled;
            // it is held when due and shown once a service runs (`deferred` says so).
            let state = await module.provider.permissionState()
            guard state == .granted || state == .unavailable else { throw denied(state) }
            let entry: PendingNotification
            do throws(ScheduleError) {
                entry = try await module.scheduler.add(notification)
            } catch {
                switch error.code {
                case .neverFires:
                    throw BridgeError.field(.module("notifications", "invalid_trigger"), path: "payload.trigger", error.message)
                case .tooManyPending:
                    throw BridgeError(.module("notifications", "too_many_pending"), error.message)
                default:
                    throw BridgeError(.module("notifications", "schedule_failed"), error.message)
                }
            }
            return NotificationScheduled(
                id: entry.notification.id, nextFireDate: entry.nextFireDate, deferred: state == .unavailable)
        }
        .action(
            "cancel", payload: NotificationID.self, result: NotificationCancelled.self,
            summary: "Cancels a pending notification.", example: NotificationID(id: "reminder")
        ) { module, id, _ in
            NotificationCancelled(cancelled: await module.scheduler.cancel(id.id))
        }
        .action("cancelAll", result: NoResult.self, summary: "Cancels every pending notification.") { module, _ in
            await module.scheduler.cancelAll()
            return NoResult()
        }
        .action("getPending", result: PendingNotifications.self, summary: "The pending notifications, soonest first.") {
            module, _ in
            PendingNotifications(notifications: await module.scheduler.pending)
        }

    static func denied(_ state: NotificationPermissionState) -> BridgeError {
        state == .unavailable
            ? BridgeError(.module("notifications", "unavailable"), "this host cannot show notifications")
            : BridgeError(.module("notifications", "permission_denied"), "notifications are not allowed (\(state.rawValue))")
    }

    let provider: any NotificationProvider
    let badge: any BadgeProvider
    let scheduler: any NotificationScheduling

    /// Creates the module: `provider` shows notifications and holds the permission,
    /// `badge` sets the badge, and `scheduler` fires local notifications (by default through
    /// `provider`).
    public init(provider: any NotificationProvider, badge: any BadgeProvider, scheduler: (any NotificationScheduling)? = nil) {
        self.provider = provider
        self.badge = badge
        self.scheduler =
            scheduler
            ?? NotificationScheduler { notification in
                try await provider.present(notification)
            }
    }
}

/// Shows notifications and owns their permission and push registration.
public protocol NotificationProvider: Sendable {
    /// The permission state, without asking.
    func permissionState() async -> NotificationPermissionState
    /// Asks the user if they have not been asked; returns the state.
    func requestPermission() async throws -> NotificationPermissionState
    /// The push registration; throw `notifications.push_unavailable` where there is none.
    func pushSubscription() async throws -> PushSubscription
    /// Shows `notification` now.
    func present(_ notification: LocalNotification) async throws
}
