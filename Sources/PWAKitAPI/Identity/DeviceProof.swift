import Crypto
public import Foundation
import PWAKitBundles
import PWAKitEncoding

/// The proof an enrolled device adds to each request it makes, in the `PWAKit-Device-Proof` header:
/// `v1 device=<id> time=<ms> nonce=<n> sig=<sig>`.
///
/// The device key signs ``signingInput(method:target:body:)``: the method, the request target
/// (path and query as sent), the SHA-256 of the body, the time, a random nonce and the device id,
/// each on its own line after a version line. The server refuses a time further than its skew bound
/// from its clock and a nonce the device has used before, so a captured request can be neither
/// replayed nor changed.
public struct DeviceProof: Hashable, Sendable {
    /// The header that carries the device's proof.
    public static let headerName = "PWAKit-Device-Proof"
    /// The header that carries an authenticator's proof over the same request (``UserProof``).
    public static let userHeaderName = "PWAKit-User-Proof"
    /// Bytes in a nonce.
    public static let nonceByteCount = 16

    /// The enrolled device's id.
    public var deviceId: String
    /// When the request was signed, in milliseconds since 1970.
    public var time: Int64
    /// A random value the device never uses twice: 16 bytes, base64url.
    public var nonce: String
    /// The device key's signature over ``signingInput(method:target:body:)``: 64 bytes (Ed25519, or
    /// P-256 `r ‖ s` over its SHA-256).
    public var signature: [UInt8]

    /// Creates a proof from its parts.
    public init(deviceId: String, time: Int64, nonce: String, signature: [UInt8]) {
        self.deviceId = deviceId
        self.time = time
        self.nonce = nonce
        self.signature = signature
    }

    /// What the device key signs for a request with this proof's device, time and nonce.
    public func signingInput(method: String, target: String, body: some DataProtocol) -> Data {
        Self.signingInput(
            domain: "PWAKIT-DEVICE-PROOF-V1", method: method, target: target, body: body, time: time, nonce: nonce,
            deviceId: deviceId)
    }

    /// The lines a proof signs, after a `domain` line that keeps device and user proofs apart.
    static func signingInput(
        domain: String, method: String, target: String, body: some DataProtocol, time: Int64, nonce: String,
        deviceId: String
    ) -> Data {
        let lines = [domain, method.uppercased(), target, SHA256.hex(of: body), String(time), nonce, deviceId]
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The header value.
    public var headerValue: String {
        "v1 device=\(deviceId) time=\(time) nonce=\(nonce) sig=\(Base64URL.encode(signature))"
    }

    /// Parses a header value; the error names the part at fault.
    public init(header: String) throws(ProofFormatError) {
        let fields = try Self.fields(of: header, version: "v1", required: ["device", "time", "nonce", "sig"])
        let deviceId = fields["device"]!
        guard (1...64).contains(deviceId.utf8.count), deviceId.utf8.allSatisfy(Self.isTokenByte) else {
            throw ProofFormatError(part: "device", "must be 1 to 64 characters of A-Z a-z 0-9 - _")
        }
        guard let time = Int64(fields["time"]!), time > 0 else {
            throw ProofFormatError(part: "time", "must be milliseconds since 1970")
        }
        let nonce = fields["nonce"]!
        guard let nonceBytes = Base64URL.decode(nonce), nonceBytes.count == Self.nonceByteCount else {
            throw ProofFormatError(part: "nonce", "must be \(Self.nonceByteCount) bytes, base64url")
        }
        guard let signature = Base64URL.decode(fields["sig"]!), signature.count == 64 else {
            throw ProofFormatError(part: "sig", "must be a 64-byte Ed25519 signature, base64url")
        }
        self.init(deviceId: deviceId, time: time, nonce: nonce, signature: signature)
    }

    /// `key=value` fields after a version word, each key once and only the `required` ones.
    static func fields(of header: String, version: String, required: Set<String>) throws(ProofFormatError) -> [String: String] {
        guard header.utf8.count <= 512 else { throw ProofFormatError(part: "header", "is longer than 512 bytes") }
        let words = header.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first, first == version else {
            throw ProofFormatError(part: "version", "must be \(version)")
        }
        var fields: [String: String] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else {
                throw ProofFormatError(part: "header", "has a part without '=': \(word.prefix(32))")
            }
            let key = String(word[..<equals])
            guard required.contains(key) else { throw ProofFormatError(part: "header", "has an unknown part \(key.prefix(32))") }
            guard fields[key] == nil else { throw ProofFormatError(part: key, "appears twice") }
            fields[key] = String(word[word.index(after: equals)...])
        }
        for key in required.sorted() where fields[key] == nil { throw ProofFormatError(part: key, "is missing") }
        return fields
    }

    /// Whether a byte may appear in an id: A-Z a-z 0-9 - _.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// An authenticator's proof that the person was verified for one request: the PIN-protected user
/// key (or the biometric key) signs the same request as the device proof, under its own domain, in the
/// `PWAKit-User-Proof` header: `v1 authenticator=pin sig=<sig>`.
public struct UserProof: Hashable, Sendable {
    /// Which key signed.
    public var authenticator: AuthenticatorKind
    /// The Ed25519 signature: 64 bytes.
    public var signature: [UInt8]

    /// Creates a proof.
    public init(authenticator: AuthenticatorKind, signature: [UInt8]) {
        self.authenticator = authenticator
        self.signature = signature
    }

    /// What the authenticator's key signs for the request a device proof covers.
    public static func signingInput(for device: DeviceProof, method: String, target: String, body: some DataProtocol) -> Data {
        DeviceProof.signingInput(
            domain: "PWAKIT-USER-PROOF-V1", method: method, target: target, body: body, time: device.time,
            nonce: device.nonce, deviceId: device.deviceId)
    }

    /// The header value.
    public var headerValue: String { "v1 authenticator=\(authenticator.rawValue) sig=\(Base64URL.encode(signature))" }

    /// Parses a header value; the error names the part at fault.
    public init(header: String) throws(ProofFormatError) {
        let fields = try DeviceProof.fields(of: header, version: "v1", required: ["authenticator", "sig"])
        guard let kind = AuthenticatorKind(rawValue: fields["authenticator"]!) else {
            throw ProofFormatError(part: "authenticator", "must be pin or biometric")
        }
        guard let signature = Base64URL.decode(fields["sig"]!), signature.count == 64 else {
            throw ProofFormatError(part: "sig", "must be a 64-byte Ed25519 signature, base64url")
        }
        self.init(authenticator: kind, signature: signature)
    }
}

/// A way the person proves it is them on an enrolled device.
public enum AuthenticatorKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// The PIN: it unlocks the user key on the device; only the server can tell a wrong PIN.
    case pin
    /// A biometric check guarding a key of its own.
    case biometric
}

/// A proof header that cannot be read; ``part`` names the part at fault.
public struct ProofFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `device`, `time`, `nonce`, `sig`, `authenticator`, `version` or `header`.
    public var part: String
    /// What is wrong with it.
    public var problem: String

    /// Creates an error.
    public init(part: String, _ problem: String) {
        self.part = part
        self.problem = problem
    }

    /// `<part> <problem>`.
    public var description: String { "\(part) \(problem)" }
}
