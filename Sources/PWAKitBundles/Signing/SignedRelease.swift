import Crypto
public import Foundation

/// The manifest bytes exactly as signed, with the publisher's signature: what `pwakit bundle` writes,
/// what `pwakit publish` uploads and what the server hands to hosts.
public struct SignedRelease: Codable, Hashable, Sendable {
    /// Standard base64 of the exact manifest bytes.
    public var manifest: String
    /// The id of the key that made ``signature``.
    public var keyId: String
    /// Standard base64 of the 64-byte Ed25519 signature over the exact manifest bytes.
    public var signature: String

    /// Creates an envelope from its encoded parts.
    public init(manifest: String, keyId: String, signature: String) {
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
    }

    /// Encodes a manifest canonically and signs its bytes.
    public static func sign(_ manifest: ReleaseManifest, with key: SigningKey) throws -> SignedRelease {
        let bytes = try ManifestCoding.encode(manifest)
        return try sign(manifestBytes: bytes, with: key)
    }

    /// Signs already-encoded manifest bytes as they are.
    public static func sign(manifestBytes: Data, with key: SigningKey) throws -> SignedRelease {
        let signature = try key.signature(for: manifestBytes)
        return SignedRelease(
            manifest: manifestBytes.base64EncodedString(), keyId: key.keyId, signature: signature.base64EncodedString())
    }

    /// The exact manifest bytes; throws when ``manifest`` is not base64.
    public func manifestBytes() throws -> Data {
        guard let bytes = Data(base64Encoded: manifest) else {
            throw BundleError(.malformedManifest, "must be standard base64", field: "manifest")
        }
        return bytes
    }

    /// The bundle hash: lowercase hex SHA-256 of the exact manifest bytes.
    public func bundleHash() throws -> String { SHA256.hex(of: try manifestBytes()) }

    /// Verifies the signature with the trusted key named by ``keyId`` and decodes the manifest.
    ///
    /// The key must be among `trustedKeys` (pinned by whoever verifies); a key list fetched from
    /// the same place as the release proves nothing.
    public func verify(trustedKeys: [VerifyingKey]) throws -> ReleaseManifest {
        let bytes = try manifestBytes()
        guard bytes.count <= ManifestCoding.maximumManifestSize else {
            throw BundleError(
                .malformedManifest, "manifest is larger than \(ManifestCoding.maximumManifestSize) bytes", field: "manifest")
        }
        guard let key = trustedKeys.first(where: { $0.keyId == keyId }) else {
            throw BundleError(.badSignature, "key \(keyId) is not a trusted publisher key", field: "keyId")
        }
        guard let signatureBytes = Data(base64Encoded: signature), signatureBytes.count == 64 else {
            throw BundleError(.badSignature, "must be the base64 of a 64-byte Ed25519 signature", field: "signature")
        }
        guard key.isValidSignature(signatureBytes, for: bytes) else {
            throw BundleError(.badSignature, "does not verify over the manifest bytes with key \(keyId)", field: "signature")
        }
        return try ManifestCoding.decode(bytes)
    }
}
