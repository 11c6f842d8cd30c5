import PWAKitCore
import PWAKitFlags

/// The `flags` module of an app whose configuration declares flag defaults (`flags`), for every
/// command that answers bridge calls (`run`, `bridge`, `modules`): the defaults, with no server
/// behind them (a signed-in host refreshes them; see docs/flags.md).
enum AppFlags {
    static func modules(for configuration: PWAConfiguration?) -> [any PWAModule] {
        guard let configuration, configuration.flags != nil else { return [] }
        return [FlagsModule(store: FeatureFlagStore(configuration: configuration))]
    }
}
