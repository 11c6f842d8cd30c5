#if WebKitGTK
    import CWebKitGTK
    import PWAKitCore
    import PWAKitModules

    /// Desktop notifications through the freedesktop.org notification service
    /// (`org.freedesktop.Notifications` on the session bus).
    ///
    /// Permission is `granted` while a notification service owns that name (or the bus can
    /// start one) and `unavailable` otherwise: desktops do not ask per app. Linux has no push
    /// service, so ``pushSubscription()`` fails with `notifications.push_unavailable`. A shown
    /// notification offers its default action; when the person clicks it the page gets a
    /// `push` event of type `tapped` carrying the notification's id and data.
    @MainActor
    final class DesktopNotifications: PWAKitModules.NotificationProvider {
        static let service = "org.freedesktop.Notifications"
        static let path = "/org/freedesktop/Notifications"

        private let appName: String
        private let bus: SessionBus?
        private let tapped: @Sendable (PushEvent) -> Void
        private let log: @Sendable (String) -> Void
        /// The service's id of the notification shown last for each of our ids.
        private var shown: [String: UInt32] = [:]
        /// What each service id showed, for its default action.
        private var byServerID: [UInt32: LocalNotification] = [:]
        /// Clicks on service ids whose `Notify` answer has not been handled yet.
        private var earlyClicks: Set<UInt32> = []

        init(
            appName: String, bus: SessionBus?, tapped: @escaping @Sendable (PushEvent) -> Void,
            log: @escaping @Sendable (String) -> Void
        ) {
            self.appName = appName
            self.bus = bus
            self.tapped = tapped
            self.log = log
            bus?.subscribe(sender: Self.service, interface: Self.service, member: "ActionInvoked") { [weak self] parameters in
                self?.actionInvoked(pwakit_variant_first_uint32(parameters))
            }
            bus?.subscribe(sender: Self.service, interface: Self.service, member: "NotificationClosed") {
                [weak self] parameters in
                self?.closed(pwakit_variant_first_uint32(parameters))
            }
        }

        func permissionState() async -> NotificationPermissionState {
            guard let bus, bus.isAvailable(Self.service) else { return .unavailable }
            return .granted
        }

        func requestPermission() async throws -> NotificationPermissionState {
            await permissionState()
        }

        func pushSubscription() async throws -> PushSubscription {
            throw BridgeError(
                .module("notifications", "push_unavailable"),
                "Linux desktops have no push service; deliver messages through your own connection while the app runs")
        }

        func present(_ notification: LocalNotification) async throws {
            guard let bus else {
                throw BridgeError(.module("notifications", "unavailable"), "there is no D-Bus session bus")
            }
            let body = [notification.subtitle, notification.body].compactMap { $0 }.joined(separator: "\n")
            let sound = notification.sound.map { $0 == "default" ? "message-new-instant" : $0 }
            let actions: [String] = ["default", "Open"]
            let parameters = withCStrings(actions) { list in
                pwakit_notify_parameters(
                    appName, shown[notification.id] ?? 0, "", notification.title, body, list, sound)
            }
            let id: UInt32
            do {
                id = try await bus.call(Self.service, Self.path, Self.service, "Notify", parameters) { reply in
                    pwakit_variant_uint32_child(reply)
                }
            } catch {
                throw BridgeError(.module("notifications", "unavailable"), "the notification service refused: \(error.message)")
            }
            shown[notification.id] = id
            byServerID[id] = notification
            log("notification \(notification.id) shown (desktop id \(id))")
            // NB: the signal and the answer travel separately; a click can be handled first.
            if earlyClicks.remove(id) != nil { actionInvoked(id) }
        }

        private func actionInvoked(_ id: UInt32) {
            guard let notification = byServerID[id] else {
                if earlyClicks.count < 64 { earlyClicks.insert(id) }
                return
            }
            log("notification \(notification.id) clicked")
            tapped(
                PushEvent(
                    type: .tapped, id: notification.id, title: notification.title, body: notification.body,
                    data: notification.data))
        }

        private func closed(_ id: UInt32) {
            guard let notification = byServerID.removeValue(forKey: id) else { return }
            if shown[notification.id] == id { shown[notification.id] = nil }
        }
    }

    /// Calls `body` with `strings` as a NULL-terminated C array.
    func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let list: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return list.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
#endif
