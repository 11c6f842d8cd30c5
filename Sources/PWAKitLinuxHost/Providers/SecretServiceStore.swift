#if WebKitGTK
    import CLibSecret
    import CWebKitGTK
    import PWAKitCore
    import PWAKitModules

    /// A ``SecureStore`` in the desktop keyring through the Secret Service API (libsecret):
    /// GNOME Keyring, KWallet or KeePassXC, encrypted with the user's password and unlocked
    /// with their session.
    ///
    /// Each secret is one item in the default collection with the attributes `app` (the
    /// bundle id) and `key`, under the schema `dev.pwakit.SecureStorage`; `secret-tool lookup
    /// app <bundleId> key <key>` finds it.
    actor SecretServiceStore: SecureStore {
        nonisolated var backend: String {
            "secret-service (the desktop keyring via libsecret: encrypted with the user's login password, "
                + "readable by programs in the unlocked session)"
        }

        func set(_ value: String, for key: String, app: String) throws {
            var error: UnsafeMutablePointer<GError>?
            let stored = pwakit_secret_store(app, key, "PWAKit: \(app) \(key)", value, &error)
            try Self.check(error, stored != 0)
        }

        func value(for key: String, app: String) throws -> String? {
            var error: UnsafeMutablePointer<GError>?
            let found = pwakit_secret_lookup(app, key, &error)
            try Self.check(error, true)
            guard let found else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }

        func delete(_ key: String, app: String) throws -> Bool {
            var error: UnsafeMutablePointer<GError>?
            let cleared = pwakit_secret_clear(app, key, &error)
            try Self.check(error, true)
            return cleared != 0
        }

        private static func check(_ error: UnsafeMutablePointer<GError>?, _ succeeded: Bool) throws(BridgeError) {
            if let error {
                let message = String(cString: error.pointee.message)
                g_error_free(error)
                throw BridgeError(.module("secureStorage", "unavailable"), "the keyring refused: \(message)")
            }
            guard succeeded else { throw BridgeError(.module("secureStorage", "failed"), "the keyring did not store the secret") }
        }
    }
#endif
