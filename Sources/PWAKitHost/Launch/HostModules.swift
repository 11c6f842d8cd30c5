public import PWAKitCore

/// The modules a host registers for an app, built one way for every command that answers
/// bridge calls (`pwakit run`, `pwakit bridge`, `pwakit modules`, the launcher): the modules it is
/// given, then the host's own — `lifecycle` always, `report` in test mode — under the
/// configuration's feature flags.
public enum HostModules {
    /// The version `app.getVersion` answers when the launch names none.
    public static let defaultVersion = "1.0.0"
    /// The build `app.getVersion` answers when the launch names none.
    public static let defaultBuild = "1"

    /// `modules` plus `lifecycle` (calling `onReady`) and, when `report` is given, `report`.
    public static func all(
        _ modules: [any PWAModule], onReady: @escaping @Sendable (BridgeCaller) -> Void = { _ in },
        report: (@Sendable (ReportModule.Entry) -> Void)? = nil
    ) -> [any PWAModule] {
        var all = modules
        all.append(LifecycleModule(onReady: onReady))
        if let report { all.append(ReportModule(sink: report)) }
        return all
    }

    /// The registry of ``all(_:onReady:report:)`` under `features`.
    public static func registry(
        _ modules: [any PWAModule], features: FeatureFlags, onReady: @escaping @Sendable (BridgeCaller) -> Void = { _ in },
        report: (@Sendable (ReportModule.Entry) -> Void)? = nil
    ) throws(RegistryError) -> ModuleRegistry {
        try ModuleRegistry(modules: all(modules, onReady: onReady, report: report), features: features)
    }
}
