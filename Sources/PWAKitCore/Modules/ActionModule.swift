/// A module whose actions are declared with typed payloads and results.
///
/// ```swift
/// struct Greeter: ActionModule {
///     static let moduleName = "greeter"
///     static let actions = ModuleActions<Greeter>()
///         .action("hello", payload: Hello.self, result: Greeting.self) { module, hello, context in
///             Greeting(text: "Hello, \(hello.name)")
///         }
/// }
/// ```
///
/// The payload is decoded before the handler runs; a payload that does not fit is answered
/// with `invalid_payload` naming the field at fault (`details.path`, e.g. `payload.name`).
public protocol ActionModule: PWAModule {
    /// The actions, with their payload and result types.
    static var actions: ModuleActions<Self> { get }
}

extension ActionModule {
    /// The declared actions' names.
    public static var supportedActions: [String] { actions.names }

    /// The contract read off the typed actions.
    public static func schema() throws(SchemaError) -> ModuleSchema {
        var described: [ActionSchema] = []
        for action in actions.all { described.append(try action.schema()) }
        return ModuleSchema(
            name: moduleName, summary: summary, featureFlag: featureFlag, actions: described, errors: errorCodes,
            events: try eventSchemas(), aliases: aliases)
    }

    /// Decodes the payload for `action`, runs its handler and encodes the result.
    public nonisolated(nonsending) func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws
        -> JSONValue?
    {
        try await Self.actions.perform(action, module: self, payload: payload, context: context)
    }
}
