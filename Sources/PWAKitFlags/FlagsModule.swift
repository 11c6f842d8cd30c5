import PWAKitAPI
public import PWAKitCore

/// `flags`: the app's feature flags, read-only, as Swift sees them (override, then the server's
/// value, then the default).
///
/// - `get {key}` → `{key, value, source}` (`value` null and `source` `"none"` for an unknown flag).
/// - `all` → `{flags: {key: value}}`.
public struct FlagsModule: ActionModule {
    /// `flags`.
    public static let moduleName = "flags"
    /// Always available where the host registers it: reading the app's own flags needs no feature.
    public static let featureFlag: String? = nil
    /// One line for the reference.
    public static let summary = "The app's feature flags, read-only: overrides, then the server's values, then the defaults."
    /// No codes of its own.
    public static let errorCodes: [ModuleErrorCode] = []
    /// `get`, `all`.
    public static let actions = ModuleActions<FlagsModule>()
        .action(
            "get", payload: FlagKey.self, result: FlagReading.self, summary: "One flag's value and where it comes from.",
            example: FlagKey(key: "new_onboarding")
        ) { module, payload, _ in
            guard let resolved = module.store.resolved(payload.key) else {
                return FlagReading(key: payload.key, value: .null, source: "none")
            }
            return FlagReading(key: payload.key, value: resolved.value.json, source: resolved.source.rawValue)
        }
        .action("all", result: FlagTable.self, summary: "Every flag that has a value.") { module, _ in
            FlagTable(flags: module.store.all.mapValues { $0.value.json })
        }

    let store: FeatureFlagStore

    /// A module reading `store`.
    public init(store: FeatureFlagStore) { self.store = store }
}

/// The payload of `flags.get`.
public struct FlagKey: Codable, Sendable, Hashable, ValidatedPayload {
    /// The flag's key.
    public var key: String
    /// Creates a payload.
    public init(key: String) { self.key = key }
    /// A flag key: a-z, 0-9, `_` and `.`, starting with a letter, at most 64.
    public func validate() throws(BridgeError) {
        guard FlagRules.isKey(key) else {
            throw BridgeError.field(
                .invalidPayload, path: "payload.key", "expected 1 to 64 characters of a-z, 0-9, _ and ., starting with a letter")
        }
    }
}

/// The result of `flags.get`.
public struct FlagReading: Codable, Sendable, Hashable {
    /// The flag's key.
    public var key: String
    /// Its value; null when it has none.
    public var value: JSONValue
    /// `override`, `remote`, `default`, or `none`.
    public var source: String
}

/// The result of `flags.all`.
public struct FlagTable: Codable, Sendable, Hashable {
    /// The values by key.
    public var flags: [String: JSONValue]
}

extension ScalarValue {
    /// The value as the bridge's JSON.
    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        }
    }
}
