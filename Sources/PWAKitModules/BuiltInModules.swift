public import PWAKitCore

/// The modules every PWAKit host offers, in the order `pwakit modules` lists them.
///
/// A host builds its registry from these and the configuration's feature flags with
/// `ModuleRegistry(modules:features:)`; hosts pass their own providers.
public enum BuiltInModules {
    /// The built-in modules over the providers of this system.
    public static func all(platform: any PlatformInfoProvider = SystemPlatformInfoProvider()) -> [any PWAModule] {
        [PlatformModule(provider: platform)]
    }
}
