public import PWAKitDependencies

enum FeatureFlagsKey: DependencyKey {
    static var liveValue: FeatureFlagStore { FeatureFlagStore(defaults: [:]) }
}

extension DependencyValues {
    /// The app's feature flags (live: a store with no defaults, which the app replaces at launch
    /// with its own; unimplemented in tests).
    public var featureFlags: FeatureFlagStore {
        get { self[FeatureFlagsKey.self] }
        set { self[FeatureFlagsKey.self] = newValue }
    }
}
