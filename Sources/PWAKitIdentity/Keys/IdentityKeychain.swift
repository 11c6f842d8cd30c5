public import Foundation
public import PWAKitModules

/// What an enrolled device keeps, in the platform's secure storage: its id, its device key and
/// device secret, and the PIN-wrapped user key (two of them in the middle of a PIN change).
public struct DeviceIdentity: Codable, Hashable, Sendable {
    /// The server's id for this device.
    public var deviceId: String
    /// The account it is enrolled for.
    public var userId: String
    /// The account's email, for display.
    public var email: String
    /// The device's name.
    public var name: String
    /// The device key as its ``DeviceKeyStore`` keeps it, base64url (software keys: the 32-byte
    /// seed or scalar; a Secure Enclave key: the enclave's opaque handle).
    public var deviceSeed: String
    /// The device key's algorithm (nil in records made before P-256 keys: Ed25519).
    public var deviceKeyAlgorithm: DeviceKeyAlgorithm?
    /// Where the device key lives (``DeviceKeyStore/storeKind``; nil in records made before: software).
    public var deviceKeyStore: String?
    /// 32 random bytes mixed into the PIN's mask, base64url.
    public var deviceSecret: String
    /// The current PIN-wrapped user key.
    public var pin: WrappedUserKey
    /// A new PIN's key, kept until the server confirms the change.
    public var pendingPIN: WrappedUserKey?
    /// When it was enrolled.
    public var enrolledAt: Date

    /// Creates a record.
    public init(
        deviceId: String, userId: String, email: String, name: String, deviceSeed: String, deviceSecret: String,
        pin: WrappedUserKey, pendingPIN: WrappedUserKey? = nil, enrolledAt: Date,
        deviceKeyAlgorithm: DeviceKeyAlgorithm? = nil, deviceKeyStore: String? = nil
    ) {
        self.deviceKeyAlgorithm = deviceKeyAlgorithm
        self.deviceKeyStore = deviceKeyStore
        self.deviceId = deviceId
        self.userId = userId
        self.email = email
        self.name = name
        self.deviceSeed = deviceSeed
        self.deviceSecret = deviceSecret
        self.pin = pin
        self.pendingPIN = pendingPIN
        self.enrolledAt = enrolledAt
    }
}

/// The device's identity material over a ``SecureStore`` (Keychain on Apple, Secret Service or an
/// encrypted file on Linux): the device record, and the biometric key, released only after a
/// biometric check.
public struct IdentityKeychain: Sendable {
    /// The store's app namespace.
    static let app = "pwakit.identity"
    static let deviceItem = "device"
    static let biometricItem = "biometric-key"

    let store: any SecureStore

    /// Keeps identity material in `store`.
    public init(store: any SecureStore) { self.store = store }

    /// The device record, or nil when the device is not enrolled.
    public func device() async throws -> DeviceIdentity? {
        guard let text = try await store.value(for: Self.deviceItem, app: Self.app) else { return nil }
        do {
            return try JSONDecoder.identity.decode(DeviceIdentity.self, from: Data(text.utf8))
        } catch {
            throw IdentityError(.corruptStore, "the stored device identity cannot be read: \(error)")
        }
    }

    /// Stores the device record.
    public func save(_ device: DeviceIdentity) async throws {
        let data = try JSONEncoder.identity.encode(device)
        try await store.set(String(decoding: data, as: UTF8.self), for: Self.deviceItem, app: Self.app)
    }

    /// The biometric key's seed (base64url), if one was stored; the caller checks biometrics first.
    func biometricSeed() async throws -> String? { try await store.value(for: Self.biometricItem, app: Self.app) }

    /// Stores or (nil) removes the biometric key's seed.
    func setBiometricSeed(_ seed: String?) async throws {
        if let seed {
            try await store.set(seed, for: Self.biometricItem, app: Self.app)
        } else {
            _ = try await store.delete(Self.biometricItem, app: Self.app)
        }
    }

    /// Removes every identity item: what a deregistered device must do.
    public func wipe() async throws {
        _ = try await store.delete(Self.biometricItem, app: Self.app)
        _ = try await store.delete(Self.deviceItem, app: Self.app)
    }
}

extension JSONEncoder {
    static var identity: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    static var identity: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
