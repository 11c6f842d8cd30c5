/// Which bridge modules and actions pages of one origin may call.
public enum BridgeGrant: Sendable, Hashable {
    /// No module at all.
    case denied
    /// Every enabled module.
    case all
    /// Only the listed entries, each `"module"` (every action) or `"module.action"`.
    case only(Set<String>)

    /// Whether a call of `action` on `module` is permitted.
    public func permits(module: String, action: String) -> Bool {
        switch self {
        case .denied: false
        case .all: true
        case .only(let entries): entries.contains(module) || entries.contains("\(module).\(action)")
        }
    }
}

extension BridgeGrant {
    /// Whether `entry` has the form of a grant entry: `module` or `module.action`, each part
    /// a letter followed by letters, digits, `_` or `-`.
    public static func isWellFormedEntry(_ entry: String) -> Bool {
        let parts = entry.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.isASCIILetter, part.count <= 64 else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" }
        }
    }
}
