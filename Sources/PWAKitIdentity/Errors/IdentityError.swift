public import PWAKitErrors

/// A mobile-identity operation that did not succeed on the device: a stable code, a message and,
/// for input, the field at fault. The server's refusals pass through as ``APIClientError``s, except
/// `device_deregistered`, which wipes the device's identity data and becomes ``Code/deregistered``.
public struct IdentityError: CodedError, Hashable {
    /// A stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The PIN breaks the policy; the message names the rule.
        public static let pinPolicy = Code("identity.pin_policy")
        /// The new PIN and its confirmation differ.
        public static let pinMismatch = Code("identity.pin_mismatch")
        /// This device is not enrolled (or its identity data was wiped).
        public static let notEnrolled = Code("identity.not_enrolled")
        /// The device was deregistered (revoked, or too many wrong PINs); its identity data is wiped.
        public static let deregistered = Code("identity.deregistered")
        /// The biometric check failed or was cancelled; the PIN still works.
        public static let biometricFailed = Code("identity.biometric_failed")
        /// This device has no biometric authenticator.
        public static let noBiometric = Code("identity.no_biometric")
        /// The stored identity data cannot be read.
        public static let corruptStore = Code("identity.corrupt_store")
        /// A scanned or pasted code is not one this platform made.
        public static let invalidCode = Code("identity.invalid_code")
    }

    /// The code.
    public var code: Code
    /// What went wrong, for a developer; interactors show it as the last info.
    public var message: String
    /// The field at fault (`pin`, `newPin`).
    public var field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// See ``CodedError``.
    public var codeName: String { code.rawValue }
    /// See ``CodedError``.
    public var fieldPath: String? { field }
    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
}
