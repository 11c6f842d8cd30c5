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
            // NB: ModuleProviders has no public memberwise initializer, so this starts from the
            // simulated set and replaces every provider in it.
            var providers = ModuleProviders.simulated(
                SimulatedDevice(), secureStore: KeychainStore(accessGroup: keychainAccessGroup))
            let notifications = UserNotificationsCenter(registration: registration)
            providers.platform = UIDevicePlatformInfo()
            providers.app = UIKitAppServices()
            providers.haptics = UIKitHaptics(view: webView)
            providers.vibration = CoreHapticsVibration()
            providers.notifications = notifications
            providers.badge = notifications
            providers.notificationScheduler = UserNotificationsScheduler()
            providers.push = push
            providers.share = ActivityViewShare(presenter: presenter)
            providers.biometrics = LocalAuthenticationBiometrics()
            providers.clipboard = UIPasteboardClipboard()
            providers.printer = UIPrintInteractionPrinter(webView: webView)
            providers.store = StoreKit2Store()
            providers.health = HealthKitStore()
            providers.permissions = DevicePermissions()
            providers.kinds = Dictionary(uniqueKeysWithValues: BuiltInModules.deviceModules.map { ($0, .real) })
            return providers
        }
    }
#endif
