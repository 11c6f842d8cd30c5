public import PWAKitCore

/// The modules every PWAKit host offers, in the order `pwakit modules` lists them.
///
/// A host builds its registry from these and the configuration's feature flags with
/// `ModuleRegistry(modules:features:)`, passing its own providers.
public enum BuiltInModules {
    /// The built-in modules over `providers`.
    public static func all(_ providers: ModuleProviders) -> [any PWAModule] {
        let platform = PlatformModule(
            provider: providers.platform, providers: providers.kinds, secureStorage: providers.secureStore.backend)
        return [
            platform,
            AppModule(provider: providers.app),
            HapticsModule(provider: providers.haptics),
            VibrationModule(provider: providers.vibration),
            NotificationsModule(
                provider: providers.notifications, badge: providers.badge, scheduler: providers.notificationScheduler),
            BadgingModule(provider: providers.badge),
            ShareModule(provider: providers.share),
            BiometricsModule(provider: providers.biometrics),
            SecureStorageModule(store: providers.secureStore),
            ClipboardModule(provider: providers.clipboard),
            PrintModule(provider: providers.printer),
            InAppPurchaseModule(store: providers.store),
            HealthModule(provider: providers.health),
            PaymentsModule(provider: providers.payments),
            DevicePermissionModule<CameraPermission>(provider: providers.permissions),
            DevicePermissionModule<MicrophonePermission>(provider: providers.permissions),
            DevicePermissionModule<LocationPermission>(provider: providers.permissions),
            LiveActivityModule(provider: providers.liveActivities),
            WidgetModule(provider: providers.widgets),
            BackgroundRefreshModule(provider: providers.backgroundRefresh),
        ]
    }

    /// The built-in modules over a fresh ``SimulatedDevice`` (listing schemas, tests).
    public static func simulated() -> [any PWAModule] {
        all(.simulated(SimulatedDevice()))
    }

    /// Each module alias of the built-in modules → the module it names (``ModuleAlias``).
    public static let aliases: [String: String] = {
        // NB: the types, not `simulated()`: building the modules would build `platform`, which reads this.
        let types: [any PWAModule.Type] = [
            DevicePermissionModule<CameraPermission>.self, DevicePermissionModule<MicrophonePermission>.self,
            DevicePermissionModule<LocationPermission>.self,
        ]
        var out: [String: String] = [:]
        for type in types { for alias in type.aliases { out[alias.name] = type.moduleName } }
        return out
    }()

    /// The modules whose providers may be real or simulated, as `platform.getInfo` lists them.
    public static let deviceModules = [
        "app", "haptics", "vibration", "notifications", "badging", "share", "biometrics", "secureStorage", "clipboard",
        "print", "iap", "healthkit", "payments", "camera", "microphone", "location",
    ]
}
