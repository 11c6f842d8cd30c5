/// The modules a host offers, by name, each enabled or disabled by configuration.
///
/// A disabled module still has an entry so that calls to it answer `unavailable` (the
/// module exists but this app turned it off) rather than `unknown_module`.
public struct ModuleRegistry: Sendable {
    /// A registered module.
    public enum Entry: Sendable {
        /// Calls reach this module.
        case enabled(any PWAModule)
        /// Calls answer `unavailable`; `flag` names the feature flag that turned it off.
        case disabled(module: any PWAModule.Type, flag: String?)

        /// The actions the module declares.
        public var actions: [String] {
            switch self {
            case .enabled(let module): type(of: module).supportedActions
            case .disabled(let module, _): module.supportedActions
            }
        }
    }

    private var entries: [String: Entry] = [:]
    /// Each module's actions, computed once at registration (dispatch asks on every call).
    private var actionSets: [String: Set<String>] = [:]
    /// The other names modules answer to, with the module each names.
    private var aliases: [String: (alias: ModuleAlias, module: String)] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `module`; a second module with the same name is an error.
    public mutating func register(_ module: some PWAModule) throws(RegistryError) {
        try insert(name: type(of: module).moduleName, .enabled(module))
    }

    /// Registers `module` as present but disabled by `flag`.
    public mutating func registerDisabled(_ module: any PWAModule.Type, flag: String?) throws(RegistryError) {
        try insert(name: module.moduleName, .disabled(module: module, flag: flag))
    }

    private mutating func insert(name: String, _ entry: Entry) throws(RegistryError) {
        let moduleAliases: [ModuleAlias]
        switch entry {
        case .enabled(let module): moduleAliases = type(of: module).aliases
        case .disabled(let module, _): moduleAliases = module.aliases
        }
        for candidate in [name] + moduleAliases.map(\.name) {
            guard !candidate.isEmpty, candidate.utf8.count <= BridgeMessage.maxNameLength else {
                throw RegistryError(
                    moduleName: candidate, reason: "a module name must be 1–\(BridgeMessage.maxNameLength) bytes")
            }
            guard entries[candidate] == nil, aliases[candidate] == nil else {
                throw RegistryError(moduleName: candidate, reason: "a module named \"\(candidate)\" is already registered")
            }
        }
        entries[name] = entry
        actionSets[name] = Set(entry.actions)
        for alias in moduleAliases {
            guard Set(alias.actions.values).isSubset(of: actionSets[name]!) else {
                throw RegistryError(
                    moduleName: alias.name, reason: "alias \"\(alias.name)\" maps to actions \(name) does not declare")
            }
            aliases[alias.name] = (alias, name)
        }
    }

    /// Whether a module called `module` is registered and declares `action`.
    public func declares(module: String, action: String) -> Bool {
        actionSets[module]?.contains(action) ?? false
    }

    /// The module and action a call to `module`.`action` reaches: the module's own names for an
    /// alias (``ModuleAlias``), the names as given otherwise.
    public func resolve(module: String, action: String) -> (module: String, action: String) {
        guard let (alias, target) = aliases[module] else { return (module, action) }
        return (target, alias.targetAction(action))
    }

    /// The alias called `name` and the module it names, if any.
    public func alias(named name: String) -> (alias: ModuleAlias, module: String)? {
        aliases[name]
    }

    /// The entry for `name`, if any module of that name was registered.
    public func entry(named name: String) -> Entry? {
        entries[name]
    }

    /// Every registered module, sorted by name; each alias too, marked with the module it names.
    public var descriptors: [ModuleDescriptor] {
        let own = entries.keys.map { name in
            switch entries[name]! {
            case .enabled(let module):
                let type = type(of: module)
                return ModuleDescriptor(name: name, actions: type.supportedActions, enabled: true, featureFlag: type.featureFlag)
            case .disabled(let module, let flag):
                return ModuleDescriptor(name: name, actions: module.supportedActions, enabled: false, featureFlag: flag)
            }
        }
        let named = Dictionary(uniqueKeysWithValues: own.map { ($0.name, $0) })
        let other = aliases.map { name, entry in
            let target = named[entry.module]!
            return ModuleDescriptor(
                name: name, actions: entry.alias.aliasActions(for: target.actions), enabled: target.enabled,
                featureFlag: target.featureFlag, aliasOf: entry.module)
        }
        return (own + other).sorted { $0.name < $1.name }
    }

    /// Every registered module's contract, sorted by name; disabled modules included.
    public func schemas() throws(SchemaError) -> [ModuleSchema] {
        var out: [ModuleSchema] = []
        for name in entries.keys.sorted() {
            switch entries[name]! {
            case .enabled(let module): out.append(try type(of: module).schema())
            case .disabled(let module, _): out.append(try module.schema())
            }
        }
        return out
    }
}

/// A registration that the registry refused.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The module's name.
    public var moduleName: String
    /// Why it was refused.
    public var reason: String

    /// The reason.
    public var description: String { reason }
}

/// A module as listed by `pwakit modules` and hashed into the protocol handshake.
public struct ModuleDescriptor: Sendable, Hashable, Codable {
    /// The module's name.
    public var name: String
    /// Its actions.
    public var actions: [String]
    /// Whether calls reach it in this configuration.
    public var enabled: Bool
    /// The feature flag that controls it, if any.
    public var featureFlag: String?
    /// For an alias, the module it names (``ModuleAlias``); `nil` for a module.
    public var aliasOf: String?

    /// Creates a descriptor.
    public init(name: String, actions: [String], enabled: Bool, featureFlag: String?, aliasOf: String? = nil) {
        self.name = name
        self.actions = actions
        self.enabled = enabled
        self.featureFlag = featureFlag
        self.aliasOf = aliasOf
    }
}
