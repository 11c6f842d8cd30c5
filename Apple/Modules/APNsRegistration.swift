#if canImport(UIKit) && os(iOS)
    public import Foundation
    import PWAKitCore
    import UIKit

    /// The app's APNs device token, as the app delegate receives it.
    ///
    /// UIKit hands the token to the app delegate, not to whoever asked for it, so the delegate
    /// forwards both outcomes here:
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
    ///     Task { await registration.didRegister(deviceToken: token) }
    /// }
    /// func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
    ///     Task { await registration.didFailToRegister(error) }
    /// }
    /// ```
    ///
    /// ``token()`` returns the known token, or registers and waits for one of the two.
    public actor APNsRegistration {
        private var known: String?
        private var waiting: [UUID: CheckedContinuation<String, any Error>] = [:]

        /// A registration with no token yet.
        public init() {}

        /// The token as lowercase hex, registering with APNs first when none is known.
        ///
        /// Fails with `notifications.push_unavailable` when registration fails (no
        /// `aps-environment` entitlement, no network on first registration).
        public func token() async throws -> String {
            if let known { return known }
            let id = UUID()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiting[id] = continuation
                    if waiting.count == 1 {
                        Task { @MainActor in UIApplication.shared.registerForRemoteNotifications() }
                    }
                }
            } onCancel: {
                Task { await self.cancel(id) }
            }
        }

        /// The app delegate received `deviceToken`.
        public func didRegister(deviceToken: Data) {
            let token = deviceToken.map { String(format: "%02x", $0) }.joined()
            known = token
            for continuation in takeWaiting() { continuation.resume(returning: token) }
        }

        /// The app delegate was told registration failed.
        public func didFailToRegister(_ error: any Error) {
            let failure = BridgeError(
                .module("notifications", "push_unavailable"), "APNs registration failed: \(error.localizedDescription)")
            for continuation in takeWaiting() { continuation.resume(throwing: failure) }
        }

        private func cancel(_ id: UUID) {
            waiting.removeValue(forKey: id)?.resume(throwing: CancellationError())
        }

        private func takeWaiting() -> [CheckedContinuation<String, any Error>] {
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
    }
#endif
