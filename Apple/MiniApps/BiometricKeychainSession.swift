#if canImport(Security) && canImport(LocalAuthentication) && os(iOS)
    import Foundation
    import LocalAuthentication
    public import PWAKitMiniApps
    public import PWAKitModules
    import Security

    /// The account's session item in the Keychain under biometric access control
    /// (`.biometryCurrentSet`): the system itself releases the refresh token only after Face ID
    /// or Touch ID succeeds, and a new enrolment makes the item unreadable. Every other item goes
    /// to `inner` (a ``KeychainStore``).
    ///
    /// Put it under the portable ``BiometricGate`` (which keeps the on/off setting, the relock
    /// timer and the password fallback) when biometric unlock is on.
    public struct BiometricKeychainSession: SecureStore {
        private let inner: any SecureStore
        private let service: String

        /// The session item under `service`; other items in `inner`.
        public init(inner: any SecureStore, service: String = "pwakit.account.session") {
            self.inner = inner
            self.service = service
        }

        /// What `platform.getInfo` reports.
        public var backend: String { "\(inner.backend); session under biometric access control" }

        /// Stores the session under `.biometryCurrentSet`; other items in `inner`.
        public func set(_ value: String, for key: String, app: String) async throws {
            guard isSession(key, app) else { return try await inner.set(value, for: key, app: app) }
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
            else { throw MiniAppError(.storageFailed, "cannot create the access control", field: "session") }
            SecItemDelete(query() as CFDictionary)
            var item = query()
            item[kSecValueData as String] = Data(value.utf8)
            item[kSecAttrAccessControl as String] = access
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else {
                throw MiniAppError(.storageFailed, "the keychain refused the session (\(status))", field: "session")
            }
        }

        /// Reads the session: the system asks for Face ID or Touch ID first.
        public func value(for key: String, app: String) async throws -> String? {
            guard isSession(key, app) else { return try await inner.value(for: key, app: app) }
            let context = LAContext()
            context.localizedReason = "Unlock your account"
            var item = query()
            item[kSecReturnData as String] = true
            item[kSecMatchLimit as String] = kSecMatchLimitOne
            item[kSecUseAuthenticationContext as String] = context
            var result: CFTypeRef?
            let status = SecItemCopyMatching(item as CFDictionary, &result)
            switch status {
            case errSecSuccess:
                guard let data = result as? Data else { return nil }
                return String(decoding: data, as: UTF8.self)
            case errSecItemNotFound:
                return nil
            default:
                // Cancelled, failed, or the enrolment changed: locked, as the gate reports it.
                throw MiniAppError(.notSignedIn, "the session is locked (\(status))", field: "session")
            }
        }

        /// Deletes the item.
        public func delete(_ key: String, app: String) async throws -> Bool {
            guard isSession(key, app) else { return try await inner.delete(key, app: app) }
            return SecItemDelete(query() as CFDictionary) == errSecSuccess
        }

        private func isSession(_ key: String, _ app: String) -> Bool {
            app == AccountSession.secureStoreApp && key == "session"
        }

        private func query() -> [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: "session"]
        }
    }

    /// The enrolment as LocalAuthentication reports it: `evaluatedPolicyDomainState`, which
    /// changes when a finger or face is added or removed.
    public struct LocalAuthenticationEnrollment: BiometricEnrollmentSource {
        /// A source.
        public init() {}

        /// The domain state, base64.
        public func enrollmentState() async -> String? {
            let context = LAContext()
            var error: NSError?
            guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return nil }
            return context.evaluatedPolicyDomainState?.base64EncodedString()
        }
    }
#endif
