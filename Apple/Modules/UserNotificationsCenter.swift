#if canImport(UIKit) && canImport(UserNotifications) && os(iOS)
    import Foundation
    public import PWAKitCore
    public import PWAKitModules
    import UserNotifications

    /// The ``NotificationProvider`` and ``BadgeProvider`` over `UNUserNotificationCenter`, with the
    /// push token from ``APNsRegistration``.
    ///
    /// Local notifications are scheduled by ``UserNotificationsScheduler``; ``present(_:)`` only
    /// serves hosts that schedule in process.
    public struct UserNotificationsCenter: NotificationProvider, BadgeProvider {
        private let registration: APNsRegistration

        /// A provider whose push token comes from `registration`.
        public init(registration: APNsRegistration) {
            self.registration = registration
        }

        /// `UNNotificationSettings.authorizationStatus`; provisional and ephemeral count as granted.
        public func permissionState() async -> NotificationPermissionState {
            Self.state(await UNUserNotificationCenter.current().notificationSettings().authorizationStatus)
        }

        /// `requestAuthorization(options: [.alert, .badge, .sound])`, then the resulting state.
        public func requestPermission() async throws -> NotificationPermissionState {
            do {
                _ = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound])
            } catch {
                throw BridgeError(
                    .module("notifications", "unavailable"), "the system refused to ask: \(error.localizedDescription)")
            }
            return await permissionState()
        }

        /// The APNs device token (registering for remote notifications if it is not known yet).
        public func pushSubscription() async throws -> PushSubscription {
            PushSubscription(token: try await registration.token(), provider: "apns")
        }

        /// Shows `notification` now (a request without a trigger).
        public func present(_ notification: LocalNotification) async throws {
            do {
                let content = try notification.content(scheduledAt: Date())
                let request = UNNotificationRequest(identifier: notification.id, content: content, trigger: nil)
                try await UNUserNotificationCenter.current().add(request)
            } catch {
                throw BridgeError(.module("notifications", "schedule_failed"), error.localizedDescription)
            }
        }

        /// `UNUserNotificationCenter.setBadgeCount(_:)`.
        public func setBadge(_ count: Int) async throws {
            do {
                try await UNUserNotificationCenter.current().setBadgeCount(count)
            } catch {
                throw BridgeError(.moduleError, "the badge could not be set: \(error.localizedDescription)")
            }
        }

        static func state(_ status: UNAuthorizationStatus) -> NotificationPermissionState {
            switch status {
            case .notDetermined: return .notDetermined
            case .denied: return .denied
            case .authorized, .provisional, .ephemeral: return .granted
            @unknown default: return .denied
            }
        }
    }
#endif
