import Crypto
import Foundation

/// The token-signing key as stored in the database: `wrapped-v1:` and the base64 of an AES-256-GCM
/// sealed box (nonce, ciphertext, tag) of the raw key, bound to its purpose, when a wrapping key is
/// configured; the base64 raw key otherwise. Whoever reads the database without the wrapping key (a
/// backup, a read-only role, an injection) cannot sign tokens.
enum KeyWrapping {
    static let prefix = "wrapped-v1:"
    /// Authenticated data: a wrapped key opens only as the token-signing key.
    static let context = Data("pwakit token-signing key".utf8)

    static func isWrapped(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    static func wrap(_ raw: Data, with key: SymmetricKey) throws -> String {
        let box = try AES.GCM.seal(raw, using: key, authenticating: context)
        guard let combined = box.combined else { throw StorageError(message: "cannot wrap the token-signing key") }
        return prefix + combined.base64EncodedString()
    }

    /// The signing key from its stored form; a clear error when it is wrapped and no key (or another key)
    /// is configured.
    static func unwrapSigningKey(_ stored: String, with key: SymmetricKey?) throws -> Curve25519.Signing.PrivateKey {
        let raw: Data
        if isWrapped(stored) {
            guard let key else {
                throw StorageError(
                    message:
                        "the token-signing key in the database is wrapped; start the server with the key-wrapping key it was wrapped with (--key-file or PWAKIT_KEY_WRAPPING_KEY)"
                )
            }
            guard let combined = Data(base64Encoded: String(stored.dropFirst(prefix.count))),
                let box = try? AES.GCM.SealedBox(combined: combined),
                let opened = try? AES.GCM.open(box, using: key, authenticating: context)
            else {
                throw StorageError(
                    message:
                        "the key-wrapping key does not open the token-signing key in the database (another key, or the stored key was altered)"
                )
            }
            raw = opened
        } else {
            guard let decoded = Data(base64Encoded: stored) else {
                throw StorageError(message: "stored token-signing key is malformed")
            }
            raw = decoded
        }
        guard let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
            throw StorageError(message: "stored token-signing key is malformed")
        }
        return privateKey
    }
}
