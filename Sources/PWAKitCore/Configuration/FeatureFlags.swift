/// The `features` section: which native capabilities the app turns on.
///
/// Every flag defaults to `true` except `healthkit`, `iap`, `payments`, `liveActivity`, `widgets` and
/// `backgroundRefresh`; a missing key takes its default.
public struct FeatureFlags: Codable, Sendable, Equatable {
    /// Push and local notifications.
    public var notifications: Bool
    /// Haptic feedback.
    public var haptics: Bool
    /// Face ID / Touch ID and platform equivalents.
    public var biometrics: Bool
    /// Keychain-backed secure storage.
    public var secureStorage: Bool
    /// HealthKit access.
    public var healthkit: Bool
    /// In-app purchases.
    public var iap: Bool
    /// The share sheet.
    public var share: Bool
    /// Printing.
    public var print: Bool
    /// The clipboard.
    public var clipboard: Bool
    /// Camera permission for the web view.
    public var cameraPermission: Bool
    /// Microphone permission for the web view.
    public var microphonePermission: Bool
    /// Location permission for the web view.
    public var locationPermission: Bool
    /// Payments (Apple Pay); needs the `payments` section.
    public var payments: Bool
    /// Live Activities (iOS; hosts without them answer as iOS does when they are off).
    public var liveActivity: Bool
    /// Home-screen widgets (iOS; hosts without them list none).
    public var widgets: Bool
    /// Fetching a URL in the background for widgets and the Live Activity (iOS).
    public var backgroundRefresh: Bool

    /// The names of every flag, as written in `pwa-config.json`.
    public static let names: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Creates flags; every argument defaults to the documented default.
    public init(
        notifications: Bool = true, haptics: Bool = true, biometrics: Bool = true, secureStorage: Bool = true,
        healthkit: Bool = false, iap: Bool = false, share: Bool = true, print: Bool = true, clipboard: Bool = true,
        cameraPermission: Bool = true, microphonePermission: Bool = true, locationPermission: Bool = true,
        payments: Bool = false, liveActivity: Bool = false, widgets: Bool = false, backgroundRefresh: Bool = false
    ) {
        self.liveActivity = liveActivity
        self.widgets = widgets
        self.backgroundRefresh = backgroundRefresh
        self.notifications = notifications
        self.haptics = haptics
        self.biometrics = biometrics
        self.secureStorage = secureStorage
        self.healthkit = healthkit
        self.iap = iap
        self.share = share
        self.print = print
        self.clipboard = clipboard
        self.cameraPermission = cameraPermission
        self.microphonePermission = microphonePermission
        self.locationPermission = locationPermission
        self.payments = payments
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case notifications, haptics, biometrics, secureStorage, healthkit, iap, share, print, clipboard
        case cameraPermission, microphonePermission, locationPermission, payments
        case liveActivity, widgets, backgroundRefresh
    }

    /// Decodes the flags; a missing key takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = FeatureFlags()
        func flag(_ key: CodingKeys, _ fallback: Bool) throws -> Bool {
            try container.decodeIfPresent(Bool.self, forKey: key) ?? fallback
        }
        notifications = try flag(.notifications, defaults.notifications)
        haptics = try flag(.haptics, defaults.haptics)
        biometrics = try flag(.biometrics, defaults.biometrics)
        secureStorage = try flag(.secureStorage, defaults.secureStorage)
        healthkit = try flag(.healthkit, defaults.healthkit)
        iap = try flag(.iap, defaults.iap)
        share = try flag(.share, defaults.share)
        print = try flag(.print, defaults.print)
        clipboard = try flag(.clipboard, defaults.clipboard)
        cameraPermission = try flag(.cameraPermission, defaults.cameraPermission)
        microphonePermission = try flag(.microphonePermission, defaults.microphonePermission)
        locationPermission = try flag(.locationPermission, defaults.locationPermission)
        payments = try flag(.payments, defaults.payments)
        liveActivity = try flag(.liveActivity, defaults.liveActivity)
        widgets = try flag(.widgets, defaults.widgets)
        backgroundRefresh = try flag(.backgroundRefresh, defaults.backgroundRefresh)
    }

    /// The value of the flag called `name` (as written in the file), or nil when no flag has that name.
    public func isEnabled(_ name: String) -> Bool? {
        guard let key = CodingKeys(rawValue: name) else { return nil }
        return switch key {
        case .notifications: notifications
        case .haptics: haptics
        case .biometrics: biometrics
        case .secureStorage: secureStorage
        case .healthkit: healthkit
        case .iap: iap
        case .share: share
        case .print: print
        case .clipboard: clipboard
        case .cameraPermission: cameraPermission
        case .microphonePermission: microphonePermission
        case .locationPermission: locationPermission
        case .payments: payments
        case .liveActivity: liveActivity
        case .widgets: widgets
        case .backgroundRefresh: backgroundRefresh
        }
    }
}
