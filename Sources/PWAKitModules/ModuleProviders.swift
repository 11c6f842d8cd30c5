public import PWAKitCore

/// The providers behind the built-in modules. ``simulated(_:secureStore:)`` backs every one
/// with a ``SimulatedDevice``; a host replaces those it has real implementations of and
/// says which are real in ``kinds``.
public struct ModuleProviders: Sendable {
    /// `platform` facts.
    public var platform: any PlatformInfoProvider
    /// `app`.
    public var app: any AppServicesProvider
    /// `haptics`.
    public var haptics: any HapticsProvider
    /// `vibration`.
    public var vibration: any VibrationProvider
    /// `notifications`.
    public var notifications: any NotificationProvider
    /// `badging` and `notifications.setBadge`.
    public var badge: any BadgeProvider
    /// `share`.
    public var share: any ShareProvider
    /// `biometrics`.
    public var biometrics: any BiometricsProvider
    /// `secureStorage`.
    public var secureStore: any SecureStore
    /// `clipboard`.
    public var clipboard: any ClipboardProvider
    /// `print`.
    public var printer: any PrintProvider
    /// `iap`.
    public var store: any StoreProvider
    /// `healthkit`.
    public var health: any HealthProvider
    /// `payments`.
    public var payments: any PaymentsProvider
    /// `camera`, `microphone`, `location`.
    public var permissions: any PermissionProvider
    /// Incoming pushes, for the host to attach pages to.
    public var push: PushRelay
    /// `liveActivity` (``NoLiveActivities`` where the platform has none).
    public var liveActivities: any LiveActivityProvider
    /// `widget` (``NoWidgets`` where the platform has none).
    public var widgets: any WidgetProvider
    /// `backgroundRefresh` (``NoBackgroundRefresh`` where the platform cannot fetch while closed).
    public var backgroundRefresh: any BackgroundRefreshProvider
    /// The scheduler of local notifications, when the host supplies its own (a test clock).
    public var notificationScheduler: (any NotificationScheduling)?
    /// Module name → `real` or `simulated`, as `platform.getInfo` reports it.
    public var kinds: [String: ProviderKind]

    /// Whether a provider acts on the real system.
    public enum ProviderKind: String, Codable, Sendable, SchemaEnum {
        /// It acts on the real system.
        case real
        /// It is simulated.
        case simulated
    }

    /// Every provider given explicitly; `kinds` says which are real. Hosts with real providers
    /// for everything (the Apple adapters) use this, so a provider added later cannot stay
    /// simulated unnoticed.
    public init(
        platform: any PlatformInfoProvider, app: any AppServicesProvider, haptics: any HapticsProvider,
        vibration: any VibrationProvider, notifications: any NotificationProvider, badge: any BadgeProvider,
        share: any ShareProvider, biometrics: any BiometricsProvider, secureStore: any SecureStore,
        clipboard: any ClipboardProvider, printer: any PrintProvider, store: any StoreProvider,
        health: any HealthProvider, payments: any PaymentsProvider, permissions: any PermissionProvider, push: PushRelay,
        notificationScheduler: (any NotificationScheduling)?, kinds: [String: ProviderKind],
        liveActivities: any LiveActivityProvider = NoLiveActivities(), widgets: any WidgetProvider = NoWidgets(),
        backgroundRefresh: any BackgroundRefreshProvider = NoBackgroundRefresh()
    ) {
        self.liveActivities = liveActivities
        self.widgets = widgets
        self.backgroundRefresh = backgroundRefresh
        self.platform = platform
        self.app = app
        self.haptics = haptics
        self.vibration = vibration
        self.notifications = notifications
        self.badge = badge
        self.share = share
        self.biometrics = biometrics
        self.secureStore = secureStore
        self.clipboard = clipboard
        self.printer = printer
        self.store = store
        self.health = health
        self.payments = payments
        self.permissions = permissions
        self.push = push
        self.notificationScheduler = notificationScheduler
        self.kinds = kinds
    }

    /// Every provider simulated by `device`, secrets in `secureStore` (in memory by default).
    public static func simulated(_ device: SimulatedDevice, secureStore: any SecureStore = InMemorySecureStore())
        -> ModuleProviders
    {
        ModuleProviders(
            platform: SystemPlatformInfoProvider(), app: device, haptics: device, vibration: device, notifications: device,
            badge: device, share: device, biometrics: device, secureStore: secureStore, clipboard: device, printer: device,
            store: device, health: device, payments: device, permissions: device, push: PushRelay(), notificationScheduler: nil,
            kinds: Dictionary(uniqueKeysWithValues: BuiltInModules.deviceModules.map { ($0, .simulated) }))
    }
}
