#if canImport(LocalAuthentication) && (os(iOS) || os(macOS))
    import LocalAuthentication
    import PWAKitCore
    public import PWAKitModules

    /// The ``BiometricsProvider`` over LocalAuthentication's
    /// `deviceOwnerAuthenticationWithBiometrics` policy: Face ID, Touch ID or Optic ID, with the
    /// passcode offered only as the `fallback` outcome.
    ///
    /// Every `LAError` code maps to one ``BiometricFailure``; the page sees it as its
    /// `biometrics.*` error code.
    public struct LocalAuthenticationBiometrics: BiometricsProvider {
        /// A provider that uses a fresh `LAContext` for every call.
        public init() {}

        /// `canEvaluatePolicy` and the context's `biometryType`.
        public func availability() async -> BiometricAvailability {
            let context = LAContext()
            var error: NSError?
            let available = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
            return BiometricAvailability(available: available, biometryType: Self.type(context.biometryType))
        }

        /// `evaluatePolicy` with `reason` as the prompt's text; `nil` on success.
        public func authenticate(reason: String) async -> BiometricFailure? {
            let context = LAContext()
            do {
                let success = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
                return success ? nil : .failed
            } catch let error as LAError {
                return Self.failure(error.code)
            } catch {
                return .failed
            }
        }

        static func type(_ type: LABiometryType) -> BiometryType {
            switch type {
            case .none: .none
            case .touchID: .touchID
            case .faceID: .faceID
            case .opticID: .opticID
            @unknown default: .none
            }
        }

        /// NB: several `LAError.Code` values are aliases of one another (`touchIDLockout` and
        /// `biometryLockout`), so they are matched as values, and a code newer than this list
        /// counts as a plain failure.
        static func failure(_ code: LAError.Code) -> BiometricFailure {
            switch code {
            case .authenticationFailed: return .failed
            case .userCancel: return .userCancel
            case .userFallback: return .fallback
            case .systemCancel, .appCancel, .invalidContext: return .systemCancel
            case .passcodeNotSet: return .passcodeNotSet
            case .biometryLockout: return .lockout
            case .biometryNotEnrolled: return .notEnrolled
            case .biometryNotAvailable, .notInteractive, .companionNotAvailable: return .notAvailable
            #if os(macOS)
                case .biometryNotPaired, .biometryDisconnected, .watchNotAvailable: return .notAvailable
                case .invalidDimensions: return .failed
            #endif
            default: return .failed
            }
        }
    }
#endif
