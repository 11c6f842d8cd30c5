#if canImport(Security)
    import Foundation
    public import PWAKitCore
    public import PWAKitModules
    import Security

    /// The ``SecureStore`` over the Keychain: one generic-password item per key, under the
    /// configuration's `identifiers.keychainService` (by default the bundle id) as
    /// `kSecAttrService`, readable after the first unlock and never synced
    /// or restored to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    public struct KeychainStore: SecureStore {
        private let accessGroup: String?

        /// A store in the app's own keychain, or in `accessGroup` to share secrets with the
        /// app's extensions (Keychain Sharing capability).
        public init(accessGroup: String? = nil) {
            self.accessGroup = accessGroup
        }

        /// A store in the configuration's keychain group (`<teamId>.<identifiers.keychainGroup>`),
        /// shared with the app's extensions; the app's own keychain when no team id is declared.
        public init(identifiers: AppIdentifiers) {
            self.init(accessGroup: identifiers.teamId.map { "\($0).\(identifiers.keychainGroup)" })
        }

        /// What `platform.getInfo` reports.
        public var backend: String { "keychain (this device only, after first unlock)" }

        /// Updates the item, or adds it when there is none.
        public func set(_ value: String, for key: String, app: String) async throws {
            let data = Data(value.utf8)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query(key, app: app) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = query(key, app: app).merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            try Self.check(status, "store")
        }

        /// The item's value, `nil` when there is none.
        public func value(for key: String, app: String) async throws -> String? {
            var item = query(key, app: app)
            item[kSecReturnData as String] = true
            item[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(item as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            try Self.check(status, "read")
            guard let data = result as? Data else {
                throw BridgeError(.module("secureStorage", "failed"), "the keychain returned no data for the key")
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Deletes the item; whether there was one.
        public func delete(_ key: String, app: String) async throws -> Bool {
            let status = SecItemDelete(query(key, app: app) as CFDictionary)
            if status == errSecItemNotFound { return false }
            try Self.check(status, "delete")
            return true
        }

        private func query(_ key: String, app: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: app,
                kSecAttrAccount as String: key,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// `secureStorage.unavailable` while the device has not been unlocked since boot or the
        /// app lacks the keychain entitlement; `secureStorage.failed` for anything else.
        static func check(_ status: OSStatus, _ operation: String) throws {
            guard status != errSecSuccess else { return }
            let reason = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            switch status {
            case errSecInteractionNotAllowed, errSecMissingEntitlement, errSecNotAvailable:
                throw BridgeError(.module("secureStorage", "unavailable"), "the keychain cannot \(operation) now: \(reason)")
            default:
                throw BridgeError(.module("secureStorage", "failed"), "the keychain refused to \(operation): \(reason)")
            }
        }
    }
#endif
