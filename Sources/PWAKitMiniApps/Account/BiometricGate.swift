import Foundation
public import PWAKitModules

/// Where the device's current biometric enrolment can be read: an opaque value that changes
/// when a finger or face is added or removed (`LAContext.evaluatedPolicyDomainState` on Apple).
public protocol BiometricEnrollmentSource: Sendable {
    /// The current enrolment, or nil when none can be read.
    func enrollmentState() async -> String?
}

/// Biometric unlock (the seed's phase 3): a ``SecureStore`` in front of the account's vault that
/// releases the stored session (the refresh token) only after a successful biometric check.
///
/// On Apple the Keychain item carries the access control itself (`.biometryCurrentSet`); on
/// Linux this gate is what stands between the Secret Service item and the app. Other items
/// pass through. The gate's own settings (on or off, the enrolment it was turned on with) live
/// in the vault beside the session, ungated. Settings that cannot be read keep the gate closed:
/// every read of the session, and every check, is `store_corrupt` naming `biometric-unlock`
/// until the password opens it or biometric unlock is turned on or off again (which rewrites
/// the item); the item itself is left as it is.
public actor BiometricGate: SecureStore {
    /// The settings item.
    static let settingsKey = "biometric-unlock"

    struct Settings: Codable, Sendable, Hashable {
        var enabled: Bool
        var enrollment: String?
        /// Set when the enrolment changed: only the password opens the gate again.
        var passwordRequired: Bool?

        var closes: Bool { enabled || passwordRequired == true }
    }

    /// What a check found.
    public enum Outcome: Sendable, Hashable {
        /// The session is released.
        case unlocked
        /// The check failed (no match, cancelled, locked out); the password still works.
        case failed(BiometricFailure)
        /// The enrolment changed since biometric unlock was turned on: it is off now, and the
        /// password is needed.
        case enrollmentChanged
    }

    private let inner: any SecureStore
    private let biometrics: any BiometricsProvider
    private let enrollment: (any BiometricEnrollmentSource)?
    private var settings: Settings?
    private var isOpen = false

    /// A gate over `inner`, checking with `biometrics`.
    public init(inner: any SecureStore, biometrics: any BiometricsProvider, enrollment: (any BiometricEnrollmentSource)? = nil) {
        self.inner = inner
        self.biometrics = biometrics
        self.enrollment = enrollment
    }

    /// The inner store's backend, gated.
    public nonisolated var backend: String { "\(inner.backend)+biometric-gate" }

    /// Whether biometric unlock is on.
    public func isEnabled() async throws -> Bool { try await load().enabled }

    /// Whether the session is released (unlock is off, or a check succeeded since the last lock).
    public func isReleased() async throws -> Bool {
        if isOpen { return true }
        return try await !load().closes
    }

    /// What the sensor offers.
    public func availability() async -> BiometricAvailability { await biometrics.availability() }

    /// Turns biometric unlock on after a successful check; throws with the failure otherwise.
    public func enable(reason: String) async throws {
        let available = await biometrics.availability()
        guard available.available else {
            throw MiniAppError(.invalidArgument, "biometrics are not available on this device", field: "biometrics")
        }
        if let failure = await biometrics.authenticate(reason: reason) {
            throw MiniAppError(.notSignedIn, "the biometric check did not succeed (\(failure.rawValue))", field: "biometrics")
        }
        try await save(Settings(enabled: true, enrollment: await enrollment?.enrollmentState()))
        isOpen = true
    }

    /// Turns biometric unlock off (the caller has checked the password).
    public func disable() async throws {
        try await save(Settings(enabled: false, enrollment: nil))
        isOpen = true
    }

    /// Closes the gate: the next read of the session needs a check.
    public func lock() { isOpen = false }

    /// Opens the gate without a biometric check: the person proved who they are with the password.
    /// Settings that cannot be read are left as they are (the gate opens for this run only).
    public func openWithPassword() async throws {
        do {
            var current = try await load()
            if current.passwordRequired == true {
                current.passwordRequired = nil
                try await save(current)
            }
        } catch let error as MiniAppError where error.code == .storeCorrupt {
            // NB: the password is the stronger proof; whether a password-required state was pending is unknown,
            // so nothing is rewritten.
        }
        isOpen = true
    }

    /// Asks for a biometric check and opens the gate on success.
    public func unlock(reason: String) async throws -> Outcome {
        let current = try await load()
        if current.passwordRequired == true { return .enrollmentChanged }
        guard current.enabled else {
            isOpen = true
            return .unlocked
        }
        if let enrollment, current.enrollment != nil, await enrollment.enrollmentState() != current.enrollment {
            // NB: a new finger or face must not reach the session: off until the password turns it on again.
            try await save(Settings(enabled: false, enrollment: nil, passwordRequired: true))
            isOpen = false
            return .enrollmentChanged
        }
        if let failure = await biometrics.authenticate(reason: reason) { return .failed(failure) }
        isOpen = true
        return .unlocked
    }

    // MARK: SecureStore

    /// Stores `value`; writing the session is allowed while the gate is closed (a password sign-in).
    public func set(_ value: String, for key: String, app: String) async throws {
        try await inner.set(value, for: key, app: app)
    }

    /// The value; the session only while the gate is open.
    public func value(for key: String, app: String) async throws -> String? {
        if isGated(key, app), !isOpen, try await load().closes {
            throw MiniAppError(.notSignedIn, "the session is locked until a biometric check or the password", field: "session")
        }
        return try await inner.value(for: key, app: app)
    }

    /// Removes the value.
    public func delete(_ key: String, app: String) async throws -> Bool {
        try await inner.delete(key, app: app)
    }

    private func isGated(_ key: String, _ app: String) -> Bool {
        app == AccountSession.secureStoreApp && key == AccountSession.secureStoreKey
    }

    /// The settings: off when the item is absent; `store_corrupt` naming the item when it cannot be
    /// decoded (never taken for "off": that would hand the session out unchecked).
    private func load() async throws -> Settings {
        if let settings { return settings }
        let text = try await inner.value(for: Self.settingsKey, app: AccountSession.secureStoreApp)
        // NB: a save that finished while this read was suspended is newer than what was read.
        if let settings { return settings }
        guard let text else {
            let off = Settings(enabled: false)
            settings = off
            return off
        }
        do {
            let loaded = try JSONDecoder().decode(Settings.self, from: Data(text.utf8))
            settings = loaded
            return loaded
        } catch {
            throw MiniAppError(
                .storeCorrupt,
                "the biometric unlock settings (\(Self.settingsKey)) cannot be read, so the session stays locked; "
                    + "unlock with the password, then turn biometric unlock on or off again",
                field: Self.settingsKey, underlying: error)
        }
    }

    private func save(_ value: Settings) async throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try await inner.set(text, for: Self.settingsKey, app: AccountSession.secureStoreApp)
        settings = value
    }
}

extension SimulatedDevice: BiometricEnrollmentSource {
    /// The simulated enrolment (`biometrics.enrollment` in a simulation script).
    public func enrollmentState() async -> String? { biometricEnrollment }
}
