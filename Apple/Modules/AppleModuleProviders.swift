#if os(iOS) && canImport(UIKit) && canImport(WebKit) && canImport(HealthKit) && canImport(CoreHaptics)
    import PWAKitCore
    public import PWAKitModules
    public import UIKit
    public import WebKit

    extension ModuleProviders {
        /// Every built-in module over the iOS frameworks, each provider real.
        ///
        /// `webView` is the web view pages run in (printing prints it, haptics play on it),
        /// `presenter` the view controller the share sheet is presented from, `registration` the
        /// APNs registration the app delegate reports to, and `push` the relay a
        /// ``PushEventForwarder`` feeds; secrets go to the app's keychain, or to
        /// `keychainAccessGroup` when the app shares them with its extensions.
        @MainActor
        public static func apple(
            webView: @escaping @MainActor () -> WKWebView?, presenter: @escaping @MainActor () -> UIViewController?,
            registration: APNsRegistration, push: PushRelay, keychainAccessGroup: String? = nil
        ) -> ModuleProviders {
            let notifications = UserNotificationsCenter(registration: registration)
            return ModuleProviders(
                platform: UIDevicePlatformInfo(), app: UIKitAppServices(), haptics: UIKitHaptics(view: webView),
                vibration: CoreHapticsVibration(), notifications: notifications, badge: notifications,
                share: ActivityViewShare(presenter: presenter), biometrics: LocalAuthenticationBiometrics(),
                secureStore: KeychainStore(accessGroup: keychainAccessGroup), clipboard: UIPasteboardClipboard(),
                printer: UIPrintInteractionPrinter(webView: webView), store: StoreKit2Store(), health: HealthKitStore(),
                payments: PassKitPayments(),
                permissions: DevicePermissions(), push: push, notificationScheduler: UserNotificationsScheduler(),
                kinds: Dictionary(uniqueKeysWithValues: BuiltInModules.deviceModules.map { ($0, .real) }))
        }
    }
#endif
