/// Another name a module answers to: the name pages written for another host post.
///
/// One implementation, two names. The public PWAKit project calls the camera permission module
/// `cameraPermission` and its actions `checkPermission` and `requestPermission`; ours is `camera`
/// with `check` and `request`. ``DevicePermissionModule`` declares the alias, the registry routes
/// the alias's calls to the module (grants, feature flags and telemetry see the module's own names),
/// and `platform.getInfo` and the reference list both names with the alias marked as such.
public struct ModuleAlias: Sendable, Hashable {
    /// The name pages post.
    public var name: String
    /// Where the name comes from, for the reference (e.g. `the PWAKit project`).
    public var origin: String
    /// The alias's action names for the module's actions that are named differently; an action not
    /// listed answers under its own name.
    public var actions: [String: String]

    /// An alias `name` from `origin`, mapping the alias's action names onto the module's.
    public init(_ name: String, origin: String = ModuleAlias.pwaKitProject, actions: [String: String] = [:]) {
        self.name = name
        self.origin = origin
        self.actions = actions
    }

    /// The origin of the aliases for pages written against the public PWAKit project's SDK.
    public static let pwaKitProject = "the PWAKit project's SDK"

    /// The module's action that the alias's `action` names.
    public func targetAction(_ action: String) -> String {
        actions[action] ?? action
    }

    /// The alias's name for each of `moduleActions`, in their order.
    public func aliasActions(for moduleActions: [String]) -> [String] {
        let byTarget = Dictionary(actions.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return moduleActions.map { byTarget[$0] ?? $0 }
    }

    /// The alias as JSON, for the module schema.
    public var json: JSONValue {
        [
            "name": .string(name), "origin": .string(origin),
            "actions": .object(actions.mapValues { .string($0) }),
        ]
    }
}
