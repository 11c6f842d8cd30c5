public import PWAKitCore

/// `platform`: facts about the device and the host. Always available.
public struct PlatformModule: ActionModule {
    /// `platform`.
    public static let moduleName = "platform"
    /// `getInfo` → ``PlatformInfo``.
    public static let actions = ModuleActions<PlatformModule>()
        .action("getInfo", result: PlatformInfo.self) { module, context in
            module.info(for: context.app)
        }

    private let provider: any PlatformInfoProvider

    /// Creates the module over `provider`.
    public init(provider: any PlatformInfoProvider = SystemPlatformInfoProvider()) {
        self.provider = provider
    }

    /// The report for `app`.
    public func info(for app: AppIdentity) -> PlatformInfo {
        PlatformInfo(
            platform: provider.platform, osVersion: provider.osVersion, appVersion: app.version, appBuild: app.build,
            deviceModel: provider.deviceModel, deviceName: provider.deviceName, pwakitVersion: PWAKit.version,
            deviceFeatures: provider.deviceFeatures)
    }
}
