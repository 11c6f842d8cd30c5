public import PWAKitCore

/// The modules whose contracts the SDK and the reference document: the built-in modules
/// plus the `lifecycle` module every host registers (behind `PWAKit.ready()`).
public enum ModuleCatalog {
    /// Their schemas, sorted by module name.
    public static func schemas(including extra: [any PWAModule.Type] = []) throws(SchemaError) -> [ModuleSchema] {
        var out: [ModuleSchema] = []
        for module in BuiltInModules.simulated() { out.append(try type(of: module).schema()) }
        for module in extra { out.append(try module.schema()) }
        return out.sorted { $0.name < $1.name }
    }
}
