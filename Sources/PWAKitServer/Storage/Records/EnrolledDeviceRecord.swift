public import Foundation

/// A device enrolled for mobile identity: its key signs every request it makes; its PIN key (and
/// biometric key, when added) prove the person.
public struct EnrolledDeviceRecord: Hashable, Sendable {
    /// The device id.
    public var id: String
    /// The user it belongs to.
    public var userId: String
    /// The name given at enrolment.
    public var name: String
    /// The device key's Ed25519 public key, base64url.
    public var deviceKey: String
    /// The PIN-protected user key's public key, base64url.
    public var pinKey: String
    /// The biometric key's public key, base64url, when one was added.
    public var biometricKey: String?
    /// Wrong PINs counted since the last right one (attempts in flight count too).
    public var pinFailures: Int
    /// Counts the PIN keys the device has had: 1 at enrolment, one more per change.
    public var pinVersion: Int
    /// When it was enrolled.
    public var createdAt: Date
    /// When it last made a verified request (to the minute: noted at most once a minute).
    public var lastUsedAt: Date?
    /// When it was revoked or deregistered.
    public var revokedAt: Date?
    /// Why: `revoked` (by its owner), `pin_attempts` (too many wrong PINs), `deregistered` (by itself).
    public var revokedReason: String?

    /// Creates a record.
    public init(
        id: String, userId: String, name: String, deviceKey: String, pinKey: String, biometricKey: String? = nil,
        pinFailures: Int = 0, pinVersion: Int = 1, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil,
        revokedReason: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.deviceKey = deviceKey
        self.pinKey = pinKey
        self.biometricKey = biometricKey
        self.pinFailures = pinFailures
        self.pinVersion = pinVersion
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
    }
}
