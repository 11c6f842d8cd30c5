public import PWAKitCore

/// `platform`: facts about the device and the host. Always available.
public struct PlatformModule: ActionModule {
    /// `platform`.
    public static let moduleName = "platform"
    /// One line for the reference.
    public static let summary =
        "Facts about the device and the host, including which device features are real and which simulated."
    /// `getInfo` → ``PlatformInfo``.
    public static let actions = ModuleActions<PlatformModule>()
        .action("getInfo", result: PlatformInfo.self, summary: "The platform, versions, device and provider kinds.") {
            module, context in
            module.info(for: context.app)
        }

    private let provider: any PlatformInfoProvider
    private let providers: [String: ModuleProviders.ProviderKind]
    private let secureStorage: String

    /// Creates the module over `provider`; `providers` and `secureStorage` are reported as
    /// they are.
    public init(
        provider: any PlatformInfoProvider = SystemPlatformInfoProvider(),
        providers: [String: ModuleProviders.ProviderKind] = [:], secureStorage: String = ""
    ) {
        self.provider = provider
        var providers = providers
        for (alias, module) in BuiltInModules.aliases { providers[alias] = providers[alias] ?? providers[module] }
        self.providers = providers
        self.secureStorage = secureStorage
    }

    /// The report for `app`.
    public func info(for app: AppIdentity) -> PlatformInfo {
        PlatformInfo(
            platform: provider.platform, osVersion: provider.osVersion, appVersion: app.version, appBuild: app.build,
            deviceModel: provider.deviceModel, deviceName: provider.deviceName, pwakitVersion: PWAKit.version,
            deviceFeatures: provider.deviceFeatures, providers: providers, secureStorage: secureStorage,
            aliases: BuiltInModules.aliases)
    }
}
