#if canImport(UserNotifications) && (os(iOS) || os(macOS))
    public import Foundation
    public import PWAKitCore
    public import PWAKitModules
    public import UserNotifications

    /// The `UNUserNotificationCenter` delegate that hands notifications to the page as `push`
    /// events through the host's ``PushRelay`` (which holds them until a page has loaded).
    ///
    /// A notification arriving while the app is in front becomes `received` (and is still shown,
    /// with `presentation`); one the user opens becomes `tapped`. Local notifications scheduled by
    /// the page carry their `data` back; remote ones carry their payload without `aps`. Set it
    /// as the center's delegate before the app finishes launching, or a tap that launched the
    /// app is lost:
    ///
    /// ```swift
    /// UNUserNotificationCenter.current().delegate = forwarder  // keep a strong reference
    /// ```
    public final class PushEventForwarder: NSObject, UNUserNotificationCenterDelegate, Sendable {
        private let relay: PushRelay
        private let presentation: UNNotificationPresentationOptions

        /// Forwards to `relay`; notifications in the foreground are shown with `presentation`.
        public init(relay: PushRelay, presentation: UNNotificationPresentationOptions = [.banner, .list, .sound, .badge]) {
            self.relay = relay
            self.presentation = presentation
            super.init()
        }

        /// Forwards a notification that arrived in the foreground as `received`.
        public func userNotificationCenter(
            _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
            withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
        ) {
            let event = Self.event(.received, notification.request)
            let relay = self.relay
            Task { await relay.receive(event) }
            completionHandler(presentation)
        }

        /// Forwards a notification the user opened as `tapped` (a dismissal is not forwarded).
        public func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
            withCompletionHandler completionHandler: @escaping @Sendable () -> Void
        ) {
            if response.actionIdentifier != UNNotificationDismissActionIdentifier {
                let event = Self.event(.tapped, response.notification.request)
                let relay = self.relay
                Task { await relay.receive(event) }
            }
            completionHandler()
        }

        /// The event for `request`.
        static func event(_ type: PushEventType, _ request: UNNotificationRequest) -> PushEvent {
            let content = request.content
            return PushEvent(
                type: type, id: request.identifier, title: content.title.isEmpty ? nil : content.title,
                body: content.body.isEmpty ? nil : content.body, data: data(from: content.userInfo))
        }

        /// The app data in a notification's `userInfo`: a local notification's `data`, or a remote
        /// notification's payload without `aps` (`nil` when nothing is left).
        ///
        /// Also for the app delegate's `didReceiveRemoteNotification`, to relay silent pushes.
        public static func data(from userInfo: [AnyHashable: Any]) -> JSONValue? {
            if let notification = LocalNotification(userInfo: userInfo) { return notification.data }
            var payload: [String: Any] = [:]
            for case let (key as String, value) in userInfo where key != "aps" { payload[key] = value }
            guard !payload.isEmpty, JSONSerialization.isValidJSONObject(payload),
                let bytes = try? JSONSerialization.data(withJSONObject: payload)
            else { return nil }
            return try? JSONDecoder().decode(JSONValue.self, from: bytes)
        }
    }
#endif
