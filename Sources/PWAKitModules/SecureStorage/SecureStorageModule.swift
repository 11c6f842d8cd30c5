public import PWAKitCore

/// `secureStorage` [features.secureStorage]: small secrets in the system's secret store.
public struct SecureStorageModule: ActionModule {
    /// `secureStorage`.
    public static let moduleName = "secureStorage"
    /// `secureStorage`.
    public static let featureFlag: String? = "secureStorage"
    /// One line for the reference.
    public static let summary =
        "Small string secrets kept in the system's secret store (Keychain; Secret Service or an encrypted file on Linux)."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("secureStorage.unavailable", "The secret store cannot be reached (e.g. the keyring is locked)."),
        ModuleErrorCode("secureStorage.failed", "The secret store refused the operation."),
    ]
    /// `set`, `get`, `delete`.
    public static let actions = ModuleActions<SecureStorageModule>()
        .action(
            "set", payload: SecretEntry.self, result: NoResult.self, summary: "Stores `value` under `key`, replacing any.",
            example: SecretEntry(key: "refreshToken", value: "r-123")
        ) { module, entry, context in
            try await module.store.set(entry.value, for: entry.key, app: AppIdentifiers(context.configuration).keychainService)
            return NoResult()
        }
        .action(
            "get", payload: SecretKey.self, result: SecretValue.self,
            summary: "The value under `key`; `value` is absent when there is none.", example: SecretKey(key: "refreshToken")
        ) { module, key, context in
            SecretValue(
                value: try await module.store.value(for: key.key, app: AppIdentifiers(context.configuration).keychainService))
        }
        .action(
            "delete", payload: SecretKey.self, result: SecretDeleted.self, summary: "Removes `key`.",
            example: SecretKey(key: "refreshToken")
        ) { module, key, context in
            SecretDeleted(
                deleted: try await module.store.delete(key.key, app: AppIdentifiers(context.configuration).keychainService))
        }

    let store: any SecureStore

    /// Creates the module over `store`.
    public init(store: any SecureStore) {
        self.store = store
    }
}

/// The payload of `secureStorage.set`.
public struct SecretEntry: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The key.
    public var key: String
    /// The secret.
    public var value: String
    /// Creates a payload.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
    /// The limits.
    public static let fieldNotes = ["key": "1…256 bytes", "value": "at most 64 KiB"]
    /// Checks the limits.
    public func validate() throws(BridgeError) {
        try SecretKey(key: key).validate()
        try FieldCheck.length(value, "payload.value", maxBytes: 65_536)
    }
}

/// The payload of `secureStorage.get` and `delete`.
public struct SecretKey: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The key.
    public var key: String
    /// Creates a payload.
    public init(key: String) { self.key = key }
    /// The limit.
    public static let fieldNotes = ["key": "1…256 bytes, no control characters"]
    /// 1…256 bytes without control characters.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(key, "payload.key", maxBytes: 256)
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .field(.invalidPayload, path: "payload.key", "must not contain control characters")
        }
    }
}

/// The result of `secureStorage.get`.
public struct SecretValue: Codable, Sendable, Hashable {
    /// The secret, null when the key has none.
    public var value: String?

    /// Creates a result.
    public init(value: String?) { self.value = value }

    private enum CodingKeys: String, CodingKey { case value }

    /// Encodes `value` even when there is none (`{"value": null}`, which pages test with `=== null`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
    }
}

/// The result of `secureStorage.delete`.
public struct SecretDeleted: Codable, Sendable, Hashable {
    /// Whether the key had a value.
    public var deleted: Bool
}

/// A store for small secrets, partitioned by app.
public protocol SecureStore: Sendable {
    /// What the store is and how it protects secrets, e.g. `secret-service` — reported by
    /// `platform.getInfo`.
    var backend: String { get }
    /// Stores `value` under `key` for `app`.
    func set(_ value: String, for key: String, app: String) async throws
    /// The value under `key` for `app`.
    func value(for key: String, app: String) async throws -> String?
    /// Removes `key` for `app`; whether it had a value.
    func delete(_ key: String, app: String) async throws -> Bool
}
