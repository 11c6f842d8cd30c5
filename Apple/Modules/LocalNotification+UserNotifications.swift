#if canImport(UserNotifications) && (os(iOS) || os(macOS))
    import Foundation
    import PWAKitCore
    import PWAKitModules
    import UserNotifications

    /// How a ``LocalNotification`` travels through `UNUserNotificationCenter` and back.
    ///
    /// The notification itself rides in the request's `userInfo` as its JSON form, so that
    /// `getPending` returns exactly what `schedule` was given and a tap hands the page its `data`.
    extension LocalNotification {
        /// The `userInfo` key holding the notification's JSON.
        static let userInfoKey = "pwakit.notification"
        /// The `userInfo` key holding when it was scheduled (interval triggers count from it).
        static let scheduledAtKey = "pwakit.scheduledAt"

        /// The content UserNotifications shows; `sound` absent or `default` plays the default sound.
        func content(scheduledAt: Date) throws -> UNMutableNotificationContent {
            let content = UNMutableNotificationContent()
            content.title = title
            if let body { content.body = body }
            if let subtitle { content.subtitle = subtitle }
            if let badge { content.badge = NSNumber(value: badge) }
            switch sound {
            case nil, "default": content.sound = .default
            case let name?: content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
            }
            let encoded = try JSONEncoder().encode(self)
            content.userInfo = [Self.userInfoKey: encoded, Self.scheduledAtKey: scheduledAt]
            return content
        }

        /// The notification a request of ours carries; `nil` for requests scheduled by other code.
        init?(userInfo: [AnyHashable: Any]) {
            guard let data = userInfo[Self.userInfoKey] as? Data,
                let notification = try? JSONDecoder().decode(LocalNotification.self, from: data)
            else { return nil }
            self = notification
        }
    }
#endif
