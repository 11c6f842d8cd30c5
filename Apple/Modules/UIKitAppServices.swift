#if canImport(UIKit) && canImport(StoreKit) && os(iOS)
    import Foundation
    import PWAKitCore
    public import PWAKitModules
    import StoreKit
    import UIKit

    /// The ``AppServicesProvider`` over StoreKit's review prompt and UIKit's settings URL.
    public struct UIKitAppServices: AppServicesProvider {
        /// The app's services.
        public init() {}

        /// `AppStore.requestReview(in:)` in the foreground scene; false when no scene is in front.
        /// StoreKit decides whether the prompt actually appears.
        @MainActor
        public func requestReview() -> Bool {
            let scene = UIApplication.shared.connectedScenes.first { $0.activationState == .foregroundActive }
            guard let scene = scene as? UIWindowScene else { return false }
            AppStore.requestReview(in: scene)
            return true
        }

        /// Opens `UIApplication.openSettingsURLString`, the app's page in Settings.
        @MainActor
        public func openSettings() async throws -> Bool {
            guard let url = URL(string: UIApplication.openSettingsURLString) else {
                throw BridgeError(.module("app", "settings_unavailable"), "this system has no settings page for the app")
            }
            return await UIApplication.shared.open(url)
        }
    }
#endif
