/// What an origin may call through the bridge.
public enum BridgeGrant: Sendable, Equatable, Hashable {
    /// The origin may not use the bridge at all.
    case denied
    /// Every enabled module.
    case all
    /// Only these entries: `module` (all its actions) or `module.action`.
    case only(Set<String>)

    /// Whether `module.action` may be called.
    public func permits(module: String, action: String) -> Bool {
        switch self {
        case .denied: false
        case .all: true
        case .only(let entries): entries.contains(module) || entries.contains("\(module).\(action)")
        }
    }
}
