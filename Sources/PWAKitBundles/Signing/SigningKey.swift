public import Crypto
public import Foundation
import PWAKitErrors

/// A publisher's Ed25519 private key, as written by `pwakit keys generate`.
public struct SigningKey: Sendable {
    /// The private key.
    public let privateKey: Curve25519.Signing.PrivateKey

    /// Wraps an existing private key.
    public init(privateKey: Curve25519.Signing.PrivateKey) { self.privateKey = privateKey }

    /// Generates a new random key.
    public static func generate() -> SigningKey { SigningKey(privateKey: .init()) }

    /// The matching public key and its key id.
    public var verifyingKey: VerifyingKey { VerifyingKey(publicKey: privateKey.publicKey) }

    /// The key id signatures made with this key carry.
    public var keyId: String { verifyingKey.keyId }

    /// Signs exactly `message`.
    public func signature(for message: Data) throws -> Data {
        try privateKey.signature(for: message)
    }

    /// The key file's JSON shape.
    public struct File: Codable, Sendable {
        /// Always `ed25519`.
        public var algorithm: String
        /// The derived key id.
        public var keyId: String
        /// Base64 of the raw 32-byte private key.
        public var privateKey: String
        /// Base64 of the raw 32-byte public key.
        public var publicKey: String
    }

    /// The key as a key file.
    public var file: File {
        File(
            algorithm: "ed25519", keyId: keyId, privateKey: privateKey.rawRepresentation.base64EncodedString(),
            publicKey: verifyingKey.base64)
    }

    /// Reads a key file's bytes; checks the algorithm and that the stored public key and key id match the private key.
    public init(fileContents: Data) throws {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: fileContents)
        } catch let error as DecodingError {
            throw BundleError(.invalidKey, "key file: \(error.fieldPath) \(error.fieldProblem)", field: error.fieldPath)
        }
        guard file.algorithm == "ed25519" else {
            throw BundleError(.invalidKey, "only ed25519 keys are supported", field: "algorithm")
        }
        guard let raw = Data(base64Encoded: file.privateKey), raw.count == 32,
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw BundleError(.invalidKey, "must be the base64 of a 32-byte Ed25519 private key", field: "privateKey")
        }
        self.init(privateKey: key)
        guard file.publicKey == verifyingKey.base64 else {
            throw BundleError(.invalidKey, "does not belong to the private key", field: "publicKey")
        }
        guard file.keyId == keyId else { throw BundleError(.invalidKey, "does not match the key", field: "keyId") }
    }
}
