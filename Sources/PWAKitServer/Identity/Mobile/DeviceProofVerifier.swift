import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitEncoding

/// Checks the `PWAKit-Device-Proof` of a request: its form, its time against the server's clock,
/// the enrolled device's signature over the method, target, body hash, time and nonce, and last that
/// the nonce is new (so only a signed request can use up a nonce).
struct DeviceProofVerifier: Sendable {
    let storage: any ServerStorage
    let environment: ServerEnvironment
    let configuration: ServerConfiguration

    /// The device whose proof `header` is for the request `method target` with `body`, and the proof;
    /// the error says what failed without telling a guesser more than the part at fault.
    func verify(header: String?, method: String, target: String, body: some DataProtocol) async throws
        -> (device: EnrolledDeviceRecord, proof: DeviceProof)
    {
        guard let header else {
            throw Self.invalid("this needs a \(DeviceProof.headerName) header from an enrolled device")
        }
        let proof: DeviceProof
        do { proof = try DeviceProof(header: header) } catch {
            throw Self.invalid("the \(DeviceProof.headerName) header's \(error.part) \(error.problem)")
        }
        let now = environment.now()
        let skew = Double(proof.time) / 1000 - now.timeIntervalSince1970
        guard abs(skew) <= configuration.proofClockSkew else {
            throw APIError(
                .unauthorized, .clockSkew,
                "the device clock is \(Int(abs(skew))) seconds \(skew > 0 ? "ahead of" : "behind") the server's; "
                    + "at most \(Int(configuration.proofClockSkew)) is accepted")
        }
        guard let device = try await storage.enrolledDevice(id: proof.deviceId) else {
            throw Self.invalid("no device is enrolled with this id")
        }
        let input = proof.signingInput(method: method, target: target, body: body)
        guard let key = DevicePublicKey(device.deviceKey), key.isValidSignature(proof.signature, for: input) else {
            throw Self.invalid("the device signature does not verify")
        }
        guard device.revokedAt == nil else { throw Self.deregistered(device) }
        // NB: kept a skew longer than any proof could be accepted here, so a replica whose clock runs up to
        // that much behind still finds the nonce after another replica's purge.
        let expiresAt = Date(timeIntervalSince1970: Double(proof.time) / 1000 + 2 * configuration.proofClockSkew)
        // NB: the last use is noted at most once a minute: one statement fewer on almost every request.
        let touch = device.lastUsedAt.map { now.timeIntervalSince($0) >= 60 } ?? true
        guard
            try await storage.useProofNonce(
                deviceId: device.id, nonce: proof.nonce, expiresAt: expiresAt, now: now, touch: touch)
        else {
            throw APIError(.unauthorized, .proofReplayed, "this proof's nonce was used before; every request needs a new one")
        }
        return (device, proof)
    }

    static func invalid(_ message: String) -> APIError {
        APIError(.unauthorized, .invalidProof, message, headers: [.wwwAuthenticate: "PWAKit-Device-Proof"])
    }

    static func deregistered(_ device: EnrolledDeviceRecord) -> APIError {
        let why =
            switch device.revokedReason {
            case "pin_attempts": "after too many wrong PINs"
            case "deregistered": "by itself"
            default: "by its owner"
            }
        return APIError(
            .forbidden, .deviceDeregistered, "this device was deregistered \(why); it must wipe its identity data")
    }

    /// An Ed25519 public key from 32 bytes of base64url (the person's keys; device keys may also be
    /// P-256, see ``DevicePublicKey``).
    static func publicKey(_ text: String) -> Curve25519.Signing.PublicKey? {
        guard text.utf8.count == 43, let raw = Base64URL.decode(text), raw.count == 32 else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }

    /// A 64-byte signature from base64url.
    static func signature(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 86, let raw = Base64URL.decode(text), raw.count == 64 else { return nil }
        return raw
    }
}

/// A device key: Ed25519 (software) or P-256 (as Apple's Secure Enclave makes them), told apart
/// by length. Both sign the same statements; a P-256 signature is `r ‖ s`, 64 bytes, over the
/// SHA-256 of the input, as Ed25519's is 64 bytes over the input.
enum DevicePublicKey {
    case ed25519(Curve25519.Signing.PublicKey)
    case p256(P256.Signing.PublicKey)

    /// 32 bytes of base64url (Ed25519) or 65 (a P-256 point, uncompressed: `04 ‖ x ‖ y`).
    init?(_ text: String) {
        if let key = DeviceProofVerifier.publicKey(text) {
            self = .ed25519(key)
            return
        }
        guard text.utf8.count == 87, let raw = Base64URL.decode(text), raw.count == 65, raw[0] == 0x04,
            let key = try? P256.Signing.PublicKey(x963Representation: raw)
        else { return nil }
        self = .p256(key)
    }

    /// Whether `signature` (64 bytes) signs `input`.
    func isValidSignature(_ signature: some DataProtocol, for input: some DataProtocol) -> Bool {
        switch self {
        case .ed25519(let key): return key.isValidSignature(signature, for: input)
        case .p256(let key):
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: input)
        }
    }
}
