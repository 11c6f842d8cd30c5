public import PWAKitCore

/// The `lifecycle` module every host registers: a page reports that it is ready
/// (`PWAKit.ready()`), after its first meaningful paint — the signal a screenshot waits for
/// and the updater's rollback rule needs (a new bundle must report ready from its own load).
public struct LifecycleModule: ActionModule {
    /// `lifecycle`.
    public static let moduleName = "lifecycle"

    /// The actions: `ready` → `{ acknowledged: true }`.
    public static let actions = ModuleActions<LifecycleModule>()
        .action("ready", result: Acknowledgement.self) { module, context in
            module.onReady(context.caller)
            return Acknowledgement(acknowledged: true)
        }

    /// The answer to `ready`.
    public struct Acknowledgement: Codable, Sendable, Hashable {
        /// Always true.
        public var acknowledged: Bool
    }

    /// Called with the page that reported ready.
    public let onReady: @Sendable (BridgeCaller) -> Void

    /// A module that calls `onReady` for each `ready` call.
    public init(onReady: @escaping @Sendable (BridgeCaller) -> Void) {
        self.onReady = onReady
    }
}
