import Crypto
public import Foundation
import PWAKitBundles

/// The byte strings the identity keys sign besides requests, each under a domain line of its own so
/// a signature made for one purpose is never valid for another.
public enum IdentityStatement {
    /// What the device key and the PIN key each sign at enrolment, proving the enroller holds both.
    public static func enrolment(userId: String, deviceKey: String, pinKey: String) -> Data {
        Data(["PWAKIT-ENROLMENT-V1", userId, deviceKey, pinKey].joined(separator: "\n").utf8)
    }

    /// What a new authenticator key (a changed PIN's key, a biometric key) signs when it is added to
    /// a device, proving the device holds it.
    public static func authenticatorKey(deviceId: String, kind: AuthenticatorKind, publicKey: String) -> Data {
        Data(["PWAKIT-AUTHENTICATOR-V1", deviceId, kind.rawValue, publicKey].joined(separator: "\n").utf8)
    }

    /// What the person's authenticator signs to answer a mobile-authentication transaction: its id, the
    /// server's nonce, the decision, the number typed from the requesting screen and
    /// ``contextHash(message:data:)`` of what was shown.
    public static func approval(
        transactionId: String, nonce: String, decision: TransactionDecision, typedNumber: Int, contextHash: String
    ) -> Data {
        Data(
            ["PWAKIT-APPROVAL-V1", transactionId, nonce, decision.rawValue, String(typedNumber), contextHash].joined(
                separator: "\n"
            ).utf8)
    }

    /// What the person's authenticator signs to let the page that shows a sign-in code in: the
    /// session, its nonce, the hash of the page's key and the page's origin, as scanned.
    public static func qrApproval(session: String, nonce: String, keyHash: String, origin: String) -> Data {
        Data(["PWAKIT-QR-APPROVAL-V1", session, nonce, keyHash, origin].joined(separator: "\n").utf8)
    }

    /// What the page's ephemeral key signs to redeem an approved sign-in code.
    public static func qrRedemption(session: String, nonce: String) -> Data {
        Data(["PWAKIT-QR-REDEEM-V1", session, nonce].joined(separator: "\n").utf8)
    }

    /// The SHA-256 (hexadecimal) of a transaction's message and its data to sign, each prefixed by its
    /// length so no two pairs hash alike.
    public static func contextHash(message: String, data: String?) -> String {
        var bytes = Data()
        for part in [message, data ?? ""] {
            let utf8 = Data(part.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(utf8)
        }
        bytes.append(data == nil ? 0 : 1)
        return SHA256.hex(of: bytes)
    }
}

/// A person's answer to a mobile-authentication transaction.
public enum TransactionDecision: String, Codable, Hashable, Sendable {
    /// It is them: signed by an authenticator with the typed number.
    case approve
    /// It is not, or not now.
    case deny
}
