/// A native module that pages call through the bridge.
///
/// This is the seed's shape: a name, the actions it supports, and one entry point. Most
/// modules adopt ``ActionModule`` instead, which declares each action with typed payload and
/// result and derives this entry point, with payload validation, for free.
public protocol PWAModule: Sendable {
    /// The name pages use, e.g. `haptics`.
    static var moduleName: String { get }
    /// The actions this module answers.
    static var supportedActions: [String] { get }
    /// The `features` flag in `pwa-config.json` that enables this module, or `nil` when the
    /// module is always available.
    static var featureFlag: String? { get }

    /// Performs `action` with `payload` for the caller described by `context`.
    ///
    /// Throw a ``BridgeError`` for failures the page should be able to tell apart; any other
    /// error reaches the page as `module_error`.
    func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue?
}

extension PWAModule {
    /// Modules are always available unless they name a feature flag.
    public static var featureFlag: String? { nil }
}
