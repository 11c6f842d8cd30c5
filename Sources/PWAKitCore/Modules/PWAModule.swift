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
    /// What the module does, one sentence for the generated reference.
    static var summary: String { get }
    /// The module's own error codes (`<module>.<reason>`) and what each means.
    static var errorCodes: [ModuleErrorCode] { get }
    /// The events the module sends to pages.
    static func eventSchemas() throws(SchemaError) -> [EventSchema]
    /// The other names the module answers to (pages written for another host); see ``ModuleAlias``.
    static var aliases: [ModuleAlias] { get }
    /// The module's contract. ``ActionModule``s derive it from their typed actions; other
    /// modules describe each action's payload and result as any JSON.
    static func schema() throws(SchemaError) -> ModuleSchema

    /// Performs `action` with `payload` for the caller described by `context`.
    ///
    /// Throw a ``BridgeError`` for failures the page should be able to tell apart; any other
    /// error reaches the page as `module_error`.
    ///
    /// The handler runs on its caller's executor (`nonisolated(nonsending)`): on a host that
    /// shares its main thread with the dispatcher, a handler that does not suspend answers
    /// without a thread hop.
    nonisolated(nonsending) func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws
        -> JSONValue?
}

extension PWAModule {
    /// Modules are always available unless they name a feature flag.
    public static var featureFlag: String? { nil }
    /// No summary.
    public static var summary: String { "" }
    /// No module-specific error codes.
    public static var errorCodes: [ModuleErrorCode] { [] }
    /// No events.
    public static func eventSchemas() throws(SchemaError) -> [EventSchema] { [] }
    /// No other names.
    public static var aliases: [ModuleAlias] { [] }

    /// Every action takes and returns any JSON.
    public static func schema() throws(SchemaError) -> ModuleSchema {
        ModuleSchema(
            name: moduleName, summary: summary, featureFlag: featureFlag,
            actions: supportedActions.map { ActionSchema(name: $0, summary: "", payload: .any, result: .any) },
            errors: errorCodes, events: try eventSchemas(), aliases: aliases)
    }
}
