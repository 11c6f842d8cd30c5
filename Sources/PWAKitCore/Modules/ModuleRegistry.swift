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
        guard !name.isEmpty, name.utf8.count <= BridgeMessage.maxNameLength else {
            throw RegistryError(moduleName: name, reason: "a module name must be 1–\(BridgeMessage.maxNameLength) bytes")
        }
        guard entries[name] == nil else {
            throw RegistryError(moduleName: name, reason: "a module named \"\(name)\" is already registered")
        }
        entries[name] = entry
        actionSets[name] = Set(entry.actions)
    }

    /// Whether a module called `module` is registered and declares `action`.
    public func declares(module: String, action: String) -> Bool {
        actionSets[module]?.contains(action) ?? false
    }

    /// The entry for `name`, if any module of that name was registered.
    public func entry(named name: String) -> Entry? {
        entries[name]
    }

    /// Every registered module, sorted by name.
    public var descriptors: [ModuleDescriptor] {
        entries.keys.sorted().map { name in
            switch entries[name]! {
            case .enabled(let module):
                let type = type(of: module)
                return ModuleDescriptor(name: name, actions: type.supportedActions, enabled: true, featureFlag: type.featureFlag)
            case .disabled(let module, let flag):
                return ModuleDescriptor(name: name, actions: module.supportedActions, enabled: false, featureFlag: flag)
            }
        }
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

    /// Creates a descriptor.
    public init(name: String, actions: [String], enabled: Bool, featureFlag: String?) {
        self.name = name
        self.actions = actions
        self.enabled = enabled
        self.featureFlag = featureFlag
    }
}
