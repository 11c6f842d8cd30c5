public import PWAKitCore

/// `biometrics` [features.biometrics]: Face ID / Touch ID / Optic ID authentication.
public struct BiometricsModule: ActionModule {
    /// `biometrics`.
    public static let moduleName = "biometrics"
    /// `biometrics`.
    public static let featureFlag: String? = "biometrics"
    /// One line for the reference.
    public static let summary = "Whether biometric authentication exists, and authenticating the user with it."
    /// The module's own error codes; each failure of `authenticate` has its own.
    public static let errorCodes = BiometricFailure.allCases.map { ModuleErrorCode($0.code.rawValue, $0.meaning) }
    /// `isAvailable`, `authenticate`.
    public static let actions = ModuleActions<BiometricsModule>()
        .action("isAvailable", result: BiometricAvailability.self, summary: "Whether biometrics can be used, and which kind.") {
            module, _ in
            await module.provider.availability()
        }
        .action(
            "authenticate", payload: BiometricPrompt.self, result: BiometricAuthentication.self,
            summary: "Asks the user to authenticate; every failure is an error with its own `biometrics.*` code.",
            example: BiometricPrompt(reason: "Confirm the payment")
        ) { module, prompt, _ in
            if let failure = await module.provider.authenticate(reason: prompt.reason) {
                throw failure.error
            }
            return BiometricAuthentication(authenticated: true)
        }

    let provider: any BiometricsProvider

    /// Creates the module over `provider`.
    public init(provider: any BiometricsProvider) {
        self.provider = provider
    }
}

/// The result of `biometrics.isAvailable`.
public struct BiometricAvailability: Codable, Sendable, Hashable {
    /// Whether authentication can be attempted now.
    public var available: Bool
    /// The kind of sensor.
    public var biometryType: BiometryType
    /// Creates a result.
    public init(available: Bool, biometryType: BiometryType) {
        self.available = available
        self.biometryType = biometryType
    }
}

/// A kind of biometric sensor.
public enum BiometryType: String, Codable, Sendable, SchemaEnum {
    /// None.
    case none
    /// Touch ID.
    case touchID
    /// Face ID.
    case faceID
    /// Optic ID.
    case opticID
}

/// The payload of `biometrics.authenticate`.
public struct BiometricPrompt: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// Why the app asks, shown to the user.
    public var reason: String
    /// Creates a payload.
    public init(reason: String) { self.reason = reason }
    /// The limit.
    public static let fieldNotes = ["reason": "1…256 bytes, shown to the user"]
    /// 1…256 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(reason, "payload.reason", maxBytes: 256) }
}

/// The result of a successful `biometrics.authenticate`.
public struct BiometricAuthentication: Codable, Sendable, Hashable {
    /// Always true: failures are errors.
    public var authenticated: Bool
    /// ``authenticated`` under the PWAKit project's name.
    public private(set) var success: Bool

    /// The outcome: `authenticated` under both names.
    public init(authenticated: Bool) {
        self.authenticated = authenticated
        self.success = authenticated
    }
}

/// Why biometric authentication failed; each has a stable code.
public enum BiometricFailure: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The biometric did not match.
    case failed
    /// The user cancelled.
    case userCancel = "user_cancel"
    /// The user chose the fallback (passcode) button.
    case fallback
    /// The system cancelled (another app came forward).
    case systemCancel = "system_cancel"
    /// Too many failed attempts; biometrics are locked.
    case lockout
    /// No biometric is enrolled.
    case notEnrolled = "not_enrolled"
    /// The device has no biometric sensor, or it is disabled.
    case notAvailable = "not_available"
    /// The device has no passcode set.
    case passcodeNotSet = "passcode_not_set"

    /// `biometrics.<reason>`.
    public var code: BridgeError.Code { .module("biometrics", rawValue) }

    /// What it means.
    public var meaning: String {
        switch self {
        case .failed: "The biometric did not match."
        case .userCancel: "The user cancelled the prompt."
        case .fallback: "The user chose the passcode fallback."
        case .systemCancel: "The system cancelled the prompt (another app came forward)."
        case .lockout: "Too many failed attempts; biometrics are locked until the passcode is entered."
        case .notEnrolled: "No biometric is enrolled."
        case .notAvailable: "The device has no usable biometric sensor."
        case .passcodeNotSet: "The device has no passcode."
        }
    }

    /// The bridge error.
    public var error: BridgeError { BridgeError(code, meaning) }
}

/// Authenticates with biometrics.
public protocol BiometricsProvider: Sendable {
    /// Whether biometrics can be used.
    func availability() async -> BiometricAvailability
    /// Prompts with `reason`; `nil` on success, else why it failed.
    func authenticate(reason: String) async -> BiometricFailure?
}
