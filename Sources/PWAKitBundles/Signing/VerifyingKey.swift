public import Crypto
public import Foundation

/// A publisher's Ed25519 public key with the key id that signatures name.
public struct VerifyingKey: Hashable, Sendable {
    /// The key id: `ed25519-` and the first 16 hex digits of the SHA-256 of the raw public key.
    public let keyId: String
    /// The public key.
    public let publicKey: Curve25519.Signing.PublicKey

    /// Wraps a public key and derives its key id.
    public init(publicKey: Curve25519.Signing.PublicKey) {
        self.publicKey = publicKey
        self.keyId = Self.keyId(forRawPublicKey: publicKey.rawRepresentation)
    }

    /// Reads a public key from the standard base64 of its 32 raw bytes.
    public init(base64 text: String) throws {
        guard let raw = Data(base64Encoded: text), raw.count == 32,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else {
            throw BundleError(.invalidKey, "must be the base64 of a 32-byte Ed25519 public key", field: "publicKey")
        }
        self.init(publicKey: key)
    }

    /// The standard base64 of the raw 32-byte public key.
    public var base64: String { publicKey.rawRepresentation.base64EncodedString() }

    /// Derives the key id of a raw Ed25519 public key.
    public static func keyId(forRawPublicKey raw: Data) -> String {
        "ed25519-" + String(SHA256.hex(of: raw).prefix(16))
    }

    /// Whether `signature` is this key's Ed25519 signature over exactly `message`.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        publicKey.isValidSignature(signature, for: message)
    }

    /// Compares by key id and key bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.keyId == rhs.keyId && lhs.publicKey.rawRepresentation == rhs.publicKey.rawRepresentation
    }

    /// Hashes the key id.
    public func hash(into hasher: inout Hasher) { hasher.combine(keyId) }
}
