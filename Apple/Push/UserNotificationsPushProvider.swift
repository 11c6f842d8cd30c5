#if canImport(UserNotifications) && canImport(UIKit) && os(iOS)
    public import Foundation
    public import PWAKitPush
    import UIKit
    import UserNotifications

    /// The ``PushProvider`` of an iOS app: permission from `UNUserNotificationCenter`, the
    /// token from ``APNsRegistration`` (which the app delegate feeds), the settings page from
    /// `UIApplication.openNotificationSettingsURLString`.
    ///
    /// The permission is read afresh on every call, so a scene that calls
    /// `PermissionFunnel.returnedToForeground()` when it becomes active sees a change made in the
    /// system's settings.
    public struct UserNotificationsPushProvider: PushProvider {
        private let registration: APNsRegistration
        /// `production` or `sandbox`: the `aps-environment` the app was signed with.
        public let environment: String

        /// A provider over `registration`; `environment` is the build's APNs environment
        /// (`sandbox` for development builds, `production` for TestFlight and the App Store).
        public init(registration: APNsRegistration, environment: String) {
            self.registration = registration
            self.environment = environment
        }

        /// `apns`.
        public var platform: String { "apns" }

        /// The authorization status now.
        public func permission() async -> PushPermission {
            let settings = await UNUserNotificationCenter.current().notificationSettings()
            return switch settings.authorizationStatus {
            case .notDetermined: .notDetermined
            case .denied: .denied
            case .authorized: .authorized
            case .provisional: .provisional
            case .ephemeral: .ephemeral
            @unknown default: .denied
            }
        }

        /// Alert, badge and sound; with `provisional`, quiet delivery without the system prompt.
        public func requestPermission(provisional: Bool) async throws -> Bool {
            var options: UNAuthorizationOptions = [.alert, .badge, .sound]
            if provisional { options.insert(.provisional) }
            return try await UNUserNotificationCenter.current().requestAuthorization(options: options)
        }

        /// The APNs token as lowercase hex, registering first when none is known.
        public func deviceToken() async throws -> String {
            try await registration.token()
        }

        /// The app's notification settings (iOS 16+), the way back from `denied`.
        public func openSettings() async {
            await MainActor.run {
                guard let url = URL(string: UIApplication.openNotificationSettingsURLString) else { return }
                UIApplication.shared.open(url)
            }
        }
    }
#endif
