/// How an action also accepts the field names and values that pages written for another host post.
///
/// Each rule is a documented mapping applied to the payload before it is decoded; nothing is
/// guessed. A page may use either name of a field, not both: both present is `invalid_payload`
/// naming the alias. The rules render into the module reference ("Also accepts") so what a page
/// may send is written down once, where it is enforced.
///
/// ```swift
/// .action("saveWorkout", payload: Workout.self, result: WorkoutSaved.self,
///         accepting: PayloadAliases(.rename("workoutType", to: "type"), .rename("calories", to: "energyBurned")))
/// ```
public struct PayloadAliases: Sendable, Hashable {
    /// One mapping.
    public enum Rule: Sendable, Hashable {
        /// Field `alias` is accepted for field `field`.
        case rename(_ alias: String, to: String)
        /// The string values of `field` (or of its elements, when it is an array) named in `map` are
        /// accepted for the mapped values; elements named in `ignored` are dropped from an array
        /// (types the other host knows and this one has nothing for).
        case values(_ field: String, map: [String: String], ignored: Set<String> = [])
        /// The boolean field `flag`, when true, adds `value` to the array `field` (created when absent).
        case flag(_ flag: String, adds: String, to: String)
        /// An absent `field` means `value`.
        case absent(_ field: String, means: JSONValue)
    }

    /// The rules, applied in order.
    public var rules: [Rule]
    /// Where the aliases come from.
    public var origin: String

    /// Accepts `rules` from `origin`.
    public init(_ rules: Rule..., origin: String = ModuleAlias.pwaKitProject) {
        self.rules = rules
        self.origin = origin
    }

    /// No aliases.
    public static let none = PayloadAliases(rules: [])

    init(rules: [Rule], origin: String = ModuleAlias.pwaKitProject) {
        self.rules = rules
        self.origin = origin
    }

    /// Whether there are no rules.
    public var isEmpty: Bool { rules.isEmpty }

    /// `payload` with every rule applied; a payload that is not an object is left as it is for the
    /// decoder to refuse.
    public func apply(_ payload: JSONValue?) throws(BridgeError) -> JSONValue? {
        guard !rules.isEmpty else { return payload }
        var members: [String: JSONValue]
        switch payload {
        case .object(let object)?: members = object
        case nil: members = [:]
        default: return payload
        }
        for rule in rules {
            switch rule {
            case .rename(let alias, let field):
                guard let value = members[alias] else { continue }
                if members[field] != nil {
                    throw .field(
                        .invalidPayload, path: "payload.\(alias)",
                        "give either \"\(field)\" or \"\(alias)\" (its name in \(origin)), not both")
                }
                members[alias] = nil
                members[field] = value
            case .values(let field, let map, let ignored):
                guard let value = members[field] else { continue }
                switch value {
                case .string(let text):
                    if let mapped = map[text] { members[field] = .string(mapped) }
                case .array(let elements):
                    var out: [JSONValue] = []
                    for element in elements {
                        if case .string(let text) = element {
                            if ignored.contains(text) { continue }
                            out.append(map[text].map { .string($0) } ?? element)
                        } else {
                            out.append(element)
                        }
                    }
                    members[field] = .array(out)
                default: continue
                }
            case .flag(let flag, let value, let field):
                guard let raw = members.removeValue(forKey: flag) else { continue }
                guard case .bool(let on) = raw else {
                    throw .field(.invalidPayload, path: "payload.\(flag)", "expected a boolean, got \(raw.typeName)")
                }
                guard on else { continue }
                switch members[field] {
                case nil, .null?:
                    members[field] = [.string(value)]
                case .array(var elements)?:
                    if !elements.contains(.string(value)) { elements.append(.string(value)) }
                    members[field] = .array(elements)
                case let other?:
                    throw .field(.invalidPayload, path: "payload.\(field)", "expected an array, got \(other.typeName)")
                }
            case .absent(let field, let value):
                if members[field] == nil { members[field] = value }
            }
        }
        return .object(members)
    }

    /// One sentence per rule, for the reference.
    public var descriptions: [String] {
        rules.map { rule in
            switch rule {
            case .rename(let alias, let field):
                "`\(alias)` for `\(field)`"
            case .values(let field, let map, let ignored):
                (map.keys.sorted().map { "`\(field)`: `\"\($0)\"` for `\"\(map[$0]!)\"`" }
                    + (ignored.isEmpty
                        ? []
                        : ["`\(field)`: \(ignored.sorted().map { "`\"\($0)\"`" }.joined(separator: ", ")) accepted and ignored"]))
                    .joined(separator: "; ")
            case .flag(let flag, let value, let field):
                "`\(flag): true` adds `\"\(value)\"` to `\(field)`"
            case .absent(let field, let value):
                "`\(field)` may be left out (means `\(JSONSerializer.serialize(value))`)"
            }
        }
    }
}
