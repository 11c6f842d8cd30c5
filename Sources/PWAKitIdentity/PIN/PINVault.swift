public import Crypto
import Foundation
import PWAKitEncoding
import _CryptoExtras

/// The user key under a PIN, as the device stores it: a 32-byte Ed25519 seed XOR a mask derived from
/// the PIN, a per-key salt and the device secret — with **no** check value.
///
/// Every PIN unwraps to *some* valid key, so the stored blob cannot tell a right PIN from a wrong
/// one; only the server, holding the public key, can, and it counts the wrong ones. The device
/// never keeps the user key's public key or anything it signed, which would give a guesser the
/// check the blob leaves out.
public struct WrappedUserKey: Codable, Hashable, Sendable {
    /// The format: 1.
    public var version: Int
    /// 16 random bytes, base64url.
    public var salt: String
    /// The seed XOR the mask, base64url (32 bytes).
    public var masked: String
    /// The scrypt cost the mask was derived with.
    public var cost: PINCost
    /// The server's PIN version this key is for (see `EnrolledDeviceResponse.pinVersion`).
    public var pinVersion: Int

    /// Creates a stored key.
    public init(version: Int = 1, salt: String, masked: String, cost: PINCost, pinVersion: Int) {
        self.version = version
        self.salt = salt
        self.masked = masked
        self.cost = cost
        self.pinVersion = pinVersion
    }
}

/// scrypt's cost for deriving a PIN's mask.
public struct PINCost: Codable, Hashable, Sendable {
    /// N: a power of two.
    public var n: Int
    /// r.
    public var r: Int
    /// p.
    public var p: Int

    /// A cost.
    public init(n: Int, r: Int, p: Int) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// 2¹⁵, 8, 1: about 32 MiB and a tenth of a second on a phone, for each try.
    public static let standard = PINCost(n: 1 << 15, r: 8, p: 1)
}

/// Wraps and unwraps the PIN-protected user key.
public enum PINVault {
    /// A new user key under `pin`: its private key and how to store it.
    public static func wrapNew(
        pin: String, deviceSecret: [UInt8], cost: PINCost = .standard, pinVersion: Int,
        randomBytes: (Int) -> [UInt8] = PINVault.systemRandomBytes
    ) throws -> (key: Curve25519.Signing.PrivateKey, stored: WrappedUserKey) {
        let seed = randomBytes(32)
        let salt = randomBytes(16)
        let mask = try self.mask(pin: pin, deviceSecret: deviceSecret, salt: salt, cost: cost)
        let masked = zip(seed, mask).map { $0 ^ $1 }
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        return (
            key,
            WrappedUserKey(
                salt: Base64URL.encode(salt), masked: Base64URL.encode(masked), cost: cost, pinVersion: pinVersion)
        )
    }

    /// The user key `pin` unwraps to: the right key for the right PIN and a different, equally valid
    /// key for any other. Throws only when the stored blob itself is malformed.
    public static func unwrap(_ stored: WrappedUserKey, pin: String, deviceSecret: [UInt8]) throws
        -> Curve25519.Signing.PrivateKey
    {
        try Curve25519.Signing.PrivateKey(rawRepresentation: unwrapSeed(stored, pin: pin, deviceSecret: deviceSecret))
    }

    /// The 32-byte seed `pin` unwraps to (see ``unwrap(_:pin:deviceSecret:)``).
    public static func unwrapSeed(_ stored: WrappedUserKey, pin: String, deviceSecret: [UInt8]) throws -> [UInt8] {
        guard stored.version == 1, let salt = Base64URL.decode(stored.salt), salt.count == 16,
            let masked = Base64URL.decode(stored.masked), masked.count == 32
        else {
            throw IdentityError(.corruptStore, "the stored user key is not one this version can read")
        }
        let mask = try self.mask(pin: pin, deviceSecret: deviceSecret, salt: salt, cost: stored.cost)
        return zip(masked, mask).map { $0 ^ $1 }
    }

    /// scrypt(PIN, salt) then HKDF with the device secret: 32 bytes. Without the device secret (kept
    /// in the platform's secure storage) a copied blob cannot even be tried.
    static func mask(pin: String, deviceSecret: [UInt8], salt: [UInt8], cost: PINCost) throws -> [UInt8] {
        guard cost.n >= 2, cost.n.nonzeroBitCount == 1, cost.n <= 1 << 20, (1...32).contains(cost.r), (1...16).contains(cost.p)
        else {
            throw IdentityError(.corruptStore, "the stored user key has an unusable cost")
        }
        let stretched = try KDF.Scrypt.deriveKey(
            from: Array(pin.utf8), salt: salt, outputByteCount: 32, rounds: cost.n, blockSize: cost.r,
            parallelism: cost.p, maxMemory: 128 * cost.r * cost.n * cost.p + 16 * 1024 * 1024)
        let mask = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: stretched, salt: deviceSecret, info: Data("pwakit-pin-mask-v1".utf8), outputByteCount: 32)
        return mask.withUnsafeBytes { Array($0) }
    }

    /// The system's secure random generator.
    public static func systemRandomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
