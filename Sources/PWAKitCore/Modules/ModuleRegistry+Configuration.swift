extension ModuleRegistry {
    /// The registry a host builds for `features`: each module whose feature flag is off is
    /// registered as disabled, so calls to it answer `unavailable`; the rest are enabled.
    ///
    /// A module naming a feature flag that does not exist is a programming error reported
    /// as a ``RegistryError``, not silently enabled.
    public init(modules: [any PWAModule], features: FeatureFlags) throws(RegistryError) {
        self.init()
        for module in modules {
            let type = type(of: module)
            guard let flag = type.featureFlag else {
                try register(module)
                continue
            }
            guard let enabled = features.isEnabled(flag) else {
                throw RegistryError(
                    moduleName: type.moduleName,
                    reason: "module \"\(type.moduleName)\" names unknown feature flag \"\(flag)\"")
            }
            if enabled {
                try register(module)
            } else {
                try registerDisabled(type, flag: flag)
            }
        }
    }
}
