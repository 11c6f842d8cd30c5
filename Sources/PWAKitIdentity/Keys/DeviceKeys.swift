import Crypto
public import Foundation
import PWAKitEncoding

/// The device key's algorithm: what the protocol accepts for the key that signs every request.
public enum DeviceKeyAlgorithm: String, Codable, Hashable, Sendable, CaseIterable {
    /// Ed25519, a software key (the default).
    case ed25519
    /// ECDSA P-256 with SHA-256: what Apple's Secure Enclave makes; a software key elsewhere.
    case p256
}

/// Makes and uses the device key. ``SoftwareDeviceKeys`` keeps the key itself in the device
/// record; on Apple a Secure Enclave store (`Apple/Identity/SecureEnclaveDeviceKeys.swift`) keeps
/// only the enclave's opaque handle there, and the key never leaves the enclave.
public protocol DeviceKeyStore: Sendable {
    /// The algorithm of the keys it makes.
    var algorithm: DeviceKeyAlgorithm { get }
    /// Where its keys live (`software`, `secure-enclave`), kept in the device record: a record is
    /// only ever signed by a store of the same kind, since each reads another's stored key as garbage.
    var storeKind: String { get }
    /// A new key: what the device record keeps (base64url) and the public key as the server takes it
    /// (Ed25519: 32 raw bytes; P-256: the 65-byte uncompressed point).
    func makeKey(randomBytes: @Sendable (Int) -> [UInt8]) throws -> (stored: String, publicKey: Data)
    /// Signs `input` with a kept key: 64 bytes (Ed25519, or P-256 `r ‖ s` over its SHA-256).
    func sign(_ input: Data, with stored: String) throws -> [UInt8]
}

/// Device keys held in software, in the device record (sealed by the platform's secure storage).
public struct SoftwareDeviceKeys: DeviceKeyStore {
    /// The algorithm.
    public let algorithm: DeviceKeyAlgorithm
    /// `software`.
    public var storeKind: String { "software" }

    /// Software keys of `algorithm`.
    public init(_ algorithm: DeviceKeyAlgorithm = .ed25519) { self.algorithm = algorithm }

    /// A new key from 32 random bytes (P-256: drawn again in the rare case they are not a valid scalar).
    public func makeKey(randomBytes: @Sendable (Int) -> [UInt8]) throws -> (stored: String, publicKey: Data) {
        switch algorithm {
        case .ed25519:
            let seed = randomBytes(32)
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
            return (Base64URL.encode(seed), key.publicKey.rawRepresentation)
        case .p256:
            for _ in 0..<8 {
                let scalar = randomBytes(32)
                guard let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar) else { continue }
                return (Base64URL.encode(scalar), key.publicKey.x963Representation)
            }
            throw IdentityError(.corruptStore, "no valid P-256 key could be drawn")
        }
    }

    /// Signs with the key kept in `stored`.
    public func sign(_ input: Data, with stored: String) throws -> [UInt8] {
        guard let raw = Base64URL.decode(stored), raw.count == 32 else {
            throw IdentityError(.corruptStore, "the stored device key cannot be read")
        }
        switch algorithm {
        case .ed25519: return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: raw).signature(for: input))
        case .p256:
            return Array(try P256.Signing.PrivateKey(rawRepresentation: raw).signature(for: input).rawRepresentation)
        }
    }
}
