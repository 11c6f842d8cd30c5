public import PWAKitCore

/// What `platform.getInfo` reports about the device and the host.
public struct PlatformInfo: Codable, Sendable, Equatable {
    /// `ios`, `linux`, `macos`, …
    public var platform: String
    /// The operating system's version, e.g. `17.4` or `Debian GNU/Linux 12 (bookworm)`.
    public var osVersion: String
    /// Always true: the page is running inside a PWAKit host.
    public var isNative: Bool
    /// The app's marketing version.
    public var appVersion: String
    /// The app's build number.
    public var appBuild: String
    /// The device model, e.g. `iPhone15,2` or the machine architecture on Linux.
    public var deviceModel: String
    /// The device's name, e.g. the host name.
    public var deviceName: String
    /// The PWAKit version.
    public var pwakitVersion: String
    /// Whether device features (haptics, biometrics, …) are real on this host or simulated.
    public var deviceFeatures: DeviceFeatures
    /// Module → whether its provider is `real` or `simulated` on this host.
    public var providers: [String: ModuleProviders.ProviderKind]
    /// Where `secureStorage` keeps secrets and how they are protected.
    public var secureStorage: String
    /// Each module alias (the PWAKit project's module names) → the module it names.
    public var aliases: [String: String]
    /// ``osVersion`` under the PWAKit project's name.
    public private(set) var version: String
    /// ``appBuild`` under the PWAKit project's name.
    public private(set) var buildNumber: String
    /// ``pwakitVersion`` under the PWAKit project's name.
    public private(set) var pwaKitVersion: String

    /// Real hardware or a simulation.
    public enum DeviceFeatures: String, Codable, Sendable, SchemaEnum {
        /// The features act on real hardware.
        case real
        /// The features are simulated (a desktop or CI host).
        case simulated
    }

    /// Creates a report.
    public init(
        platform: String, osVersion: String, isNative: Bool = true, appVersion: String, appBuild: String,
        deviceModel: String, deviceName: String, pwakitVersion: String, deviceFeatures: DeviceFeatures,
        providers: [String: ModuleProviders.ProviderKind] = [:], secureStorage: String = "",
        aliases: [String: String] = [:]
    ) {
        self.aliases = aliases
        self.version = osVersion
        self.buildNumber = appBuild
        self.pwaKitVersion = pwakitVersion
        self.providers = providers
        self.secureStorage = secureStorage
        self.platform = platform
        self.osVersion = osVersion
        self.isNative = isNative
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.deviceModel = deviceModel
        self.deviceName = deviceName
        self.pwakitVersion = pwakitVersion
        self.deviceFeatures = deviceFeatures
    }
}
