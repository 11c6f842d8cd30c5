#if canImport(CryptoKit) && canImport(Security) && (os(iOS) || os(watchOS) || os(macOS))
    import CryptoKit
    import Foundation
    import PWAKitEncoding
    import PWAKitIdentity
    import Security

    /// Device keys in the Secure Enclave: P-256 keys made and used inside the enclave. The device
    /// record keeps only the enclave's opaque handle (`dataRepresentation`), which no other device
    /// can use; the server sees the same protocol as for software keys (a 65-byte public point,
    /// 64-byte `r ‖ s` signatures). Set it on the client: `client.deviceKeys = SecureEnclaveDeviceKeys()`.
    public struct SecureEnclaveDeviceKeys: DeviceKeyStore {
        /// P-256.
        public let algorithm = DeviceKeyAlgorithm.p256
        /// `secure-enclave`.
        public var storeKind: String { "secure-enclave" }

        /// The store.
        public init() {}

        /// A new key in the enclave, usable only while the device is unlocked, never exported.
        public func makeKey(randomBytes: @Sendable (Int) -> [UInt8]) throws -> (stored: String, publicKey: Data) {
            guard SecureEnclave.isAvailable else {
                throw IdentityError(.corruptStore, "this device has no Secure Enclave")
            }
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, &error)
            else {
                throw IdentityError(.corruptStore, "the Secure Enclave key's access control could not be made")
            }
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            return (Base64URL.encode(key.dataRepresentation), key.publicKey.x963Representation)
        }

        /// Signs inside the enclave with the key behind `stored`.
        public func sign(_ input: Data, with stored: String) throws -> [UInt8] {
            guard let handle = Base64URL.decode(stored) else {
                throw IdentityError(.corruptStore, "the stored Secure Enclave handle cannot be read")
            }
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(handle))
            return Array(try key.signature(for: input).rawRepresentation)
        }
    }
#endif
