import Foundation
public import PWAKitAPI

/// Every interactor of the showcase over one root state and one client (the seed's `Interactors`).
@MainActor
public struct IdentityInteractors {
    /// Start and reset.
    public let sdk: SDKInteractor
    /// Enrolment after a password sign-in.
    public let registration: RegistrationInteractor
    /// The PIN pad.
    public let pinPad: PinPadInteractor
    /// Signing in and out.
    public let authenticator: AuthenticatorInteractor
    /// Adding and removing the biometric authenticator, changing the PIN.
    public let authenticatorRegistration: AuthenticatorRegistrationInteractor
    /// Mobile-authentication requests.
    public let mobileAuth: MobileAuthRequestInteractor
    /// Calls to the platform's API with the device's session.
    public let resource: ResourceInteractor
    /// Sign-in codes scanned from another screen.
    public let qrScanner: QRScannerInteractor

    /// Wires every interactor to `app` and `client`.
    public init(app: IdentityApp, client: IdentityClient) {
        let pinPad = PinPadInteractor(app: app, client: client)
        self.pinPad = pinPad
        sdk = SDKInteractor(app: app, client: client)
        registration = RegistrationInteractor(app: app, client: client, pinPad: pinPad)
        authenticator = AuthenticatorInteractor(app: app, client: client, pinPad: pinPad)
        authenticatorRegistration = AuthenticatorRegistrationInteractor(app: app, client: client, pinPad: pinPad)
        mobileAuth = MobileAuthRequestInteractor(app: app, client: client, pinPad: pinPad)
        resource = ResourceInteractor(app: app, client: client)
        qrScanner = QRScannerInteractor(app: app, client: client, pinPad: pinPad)
    }

    /// An error in words for the person.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? IdentityError {
            switch error.code {
            case .deregistered: return "This device was deregistered and its sign-in data erased: \(error.message)"
            default: return error.message.prefix(1).uppercased() + error.message.dropFirst()
            }
        }
        if let error = error as? APIClientError {
            switch error.code.rawValue {
            case "network", "timeout": return "The server cannot be reached; try again when you are online"
            case "number_mismatch": return "That is not the number on the other screen; the request was refused"
            case "transaction_closed": return "This request has expired or was already answered"
            case "clock_skew": return "This device's clock is wrong; set it to the right time"
            case "device_limit": return "This account already has an enrolled device; remove it first"
            default: return error.message.prefix(1).uppercased() + error.message.dropFirst()
            }
        }
        return "Something went wrong: \(error)"
    }

    /// After a failure: a deregistered device goes back to not registered.
    static func settle(after error: any Error, app: IdentityApp) async {
        guard let error = error as? IdentityError, error.code == .deregistered else { return }
        app.system.setUserState(.notRegistered)
        app.system.setEnrollmentState(.unenrolled)
        app.deviceData = DeviceData()
        app.registeredUsers = []
        app.pendingTransactions = []
        app.session = nil
    }

    /// Runs `work` with the processing flag up, writing its message or its error in words.
    static func run(_ app: IdentityApp, _ work: @MainActor () async throws -> String?) async {
        app.system.isProcessing = true
        defer { app.system.isProcessing = false }
        do {
            if let message = try await work() { app.system.lastInfoDescription = message }
        } catch {
            app.system.lastInfoDescription = describe(error)
            await settle(after: error, app: app)
        }
    }
}

/// Reads the stored identity at start, and wipes it on request.
@MainActor
public final class SDKInteractor {
    let app: IdentityApp
    let client: IdentityClient

    init(app: IdentityApp, client: IdentityClient) {
        self.app = app
        self.client = client
    }

    /// Reads what this device has enrolled and, when online, what the server says of it.
    public func start() async {
        await IdentityInteractors.run(app) {
            defer { app.system.isSDKInitialized = true }
            guard let identity = try await client.identity() else {
                app.system.setUserState(.notRegistered)
                app.system.setEnrollmentState(.unenrolled)
                return nil
            }
            app.registeredUsers = [RegisteredUser(id: identity.userId, email: identity.email)]
            app.deviceData.deviceId = identity.deviceId
            app.deviceData.name = identity.name
            app.system.setUserState(.registered)
            app.system.setEnrollmentState(.mobileEnrolled)
            let device = try await client.device()
            app.deviceData.authenticators = device.authenticators
            app.deviceData.pinAttemptsLeft = device.pinAttemptsLeft
            return nil
        }
    }

    /// Deregisters this device on the server (when it can) and erases its identity data.
    public func reset() async {
        await IdentityInteractors.run(app) {
            do { try await client.deregister() } catch let error as APIClientError where error.status == nil {
                // NB: offline: the data is erased here anyway; the owner can revoke the device from another session.
                try await client.keychain.wipe()
            }
            await IdentityInteractors.settle(
                after: IdentityError(.deregistered, "reset"), app: app)
            return "This device's sign-in data is erased"
        }
    }
}

/// Enrols this device for an account the person signed in to with a password.
@MainActor
public final class RegistrationInteractor {
    let app: IdentityApp
    let client: IdentityClient
    let pinPad: PinPadInteractor

    init(app: IdentityApp, client: IdentityClient, pinPad: PinPadInteractor) {
        self.app = app
        self.client = client
        self.pinPad = pinPad
    }

    /// Signs in with the password, then opens the PIN pad to create the PIN that enrols the device.
    public func register(email: String, password: String, deviceName: String) async {
        await IdentityInteractors.run(app) {
            let tokens = try await client.api.login(LoginRequest(email: email, password: password))
            pinPad.request(.enrol(name: deviceName, user: tokens.user, accessToken: tokens.accessToken))
            return "Choose a PIN of at least \(client.policy.minimumLength) digits"
        }
    }
}

/// Signs the person in with the device, and out.
@MainActor
public final class AuthenticatorInteractor {
    let app: IdentityApp
    let client: IdentityClient
    let pinPad: PinPadInteractor

    init(app: IdentityApp, client: IdentityClient, pinPad: PinPadInteractor) {
        self.app = app
        self.client = client
        self.pinPad = pinPad
    }

    /// With the PIN: opens the pad. With biometrics: checks now; a failure leaves the PIN as the fallback.
    public func authenticateUser(with kind: AuthenticatorKind) async {
        switch kind {
        case .pin: pinPad.request(.signIn)
        case .biometric:
            await IdentityInteractors.run(app) {
                do {
                    let session = try await client.signIn(.biometric(reason: "Sign in"))
                    app.session = session
                    app.system.setUserState(.authenticated(session.user.id))
                    return "Signed in as \(session.user.email)"
                } catch let error as IdentityError where error.code == .biometricFailed || error.code == .noBiometric {
                    pinPad.request(.signIn)
                    return IdentityInteractors.describe(error)
                }
            }
        }
    }

    /// Ends the device's session.
    public func logout() async {
        await IdentityInteractors.run(app) {
            if let session = app.session {
                try? await client.api.logout(refreshToken: session.refreshToken, accessToken: session.accessToken)
            }
            app.session = nil
            app.system.setUserState(.unauthenticated)
            return "Signed out"
        }
    }
}

/// Adds and removes the biometric authenticator, and changes the PIN.
@MainActor
public final class AuthenticatorRegistrationInteractor {
    let app: IdentityApp
    let client: IdentityClient
    let pinPad: PinPadInteractor

    init(app: IdentityApp, client: IdentityClient, pinPad: PinPadInteractor) {
        self.app = app
        self.client = client
        self.pinPad = pinPad
    }

    /// Opens the pad: the PIN proves the person before a biometric key is added.
    public func registerBiometric() { pinPad.request(.addBiometric) }

    /// Removes the biometric authenticator.
    public func deregisterBiometric() async {
        await IdentityInteractors.run(app) {
            try await client.removeBiometric()
            app.deviceData.authenticators = [.pin]
            return "Biometric sign-in is off"
        }
    }

    /// Opens the pad for a PIN change.
    public func changePin() { pinPad.request(.changePin) }
}

/// Mobile-authentication requests: found by push or polling, shown, approved or denied.
@MainActor
public final class MobileAuthRequestInteractor {
    let app: IdentityApp
    let client: IdentityClient
    let pinPad: PinPadInteractor

    init(app: IdentityApp, client: IdentityClient, pinPad: PinPadInteractor) {
        self.app = app
        self.client = client
        self.pinPad = pinPad
    }

    /// Fetches the waiting requests and their details; `quietly` (a poll) says nothing when none wait.
    public func refresh(quietly: Bool = false) async {
        await IdentityInteractors.run(app) {
            var details: [TransactionDetailsResponse] = []
            for pending in try await client.pendingTransactions() {
                details.append(try await client.transaction(id: pending.id))
            }
            // NB: an answer given while this refresh waited on the server stays given.
            app.pendingTransactions = details.filter { !app.answeredTransactions.contains($0.id) }
            return details.isEmpty && !quietly ? "No requests are waiting" : nil
        }
    }

    /// A push's route (`pwakit://identity/transactions/<id>`): fetches that request's details.
    public func handlePush(route: String) async {
        let prefix = "pwakit://identity/transactions/"
        guard route.hasPrefix(prefix) else { return }
        let id = String(route.dropFirst(prefix.count))
        await IdentityInteractors.run(app) {
            let details = try await client.transaction(id: id)
            app.pendingTransactions.removeAll { $0.id == id }
            app.pendingTransactions.append(details)
            return nil
        }
    }

    /// Approves with the number typed from the requesting screen: the PIN pad opens for the PIN, or
    /// a biometric check signs now.
    public func approve(_ details: TransactionDetailsResponse, typedNumber: Int, with kind: AuthenticatorKind) async {
        switch kind {
        case .pin: pinPad.request(.approve(details, typedNumber: typedNumber))
        case .biometric:
            await IdentityInteractors.run(app) {
                let status = try await client.approve(
                    details, typedNumber: typedNumber, check: .biometric(reason: "Confirm: \(details.message)"))
                app.answered(details.id)
                return status.status == "approved" ? "Approved" : "The request ended as \(status.status)"
            }
        }
    }

    /// Denies; `notMe` reports it as not the person's.
    public func deny(_ details: TransactionDetailsResponse, notMe: Bool) async {
        await IdentityInteractors.run(app) {
            _ = try await client.deny(id: details.id, notMe: notMe)
            app.answered(details.id)
            return notMe ? "Denied and reported; requests to your account are paused for a while" : "Denied"
        }
    }
}

/// Calls to the platform's API with the session the device signed in with.
@MainActor
public final class ResourceInteractor {
    let app: IdentityApp
    let client: IdentityClient

    init(app: IdentityApp, client: IdentityClient) {
        self.app = app
        self.client = client
    }

    /// The signed-in person's profile (`GET /v1/me`).
    public func fetchProfile() async -> UserResponse? {
        var profile: UserResponse?
        await IdentityInteractors.run(app) {
            guard let session = app.session else {
                throw IdentityError(.notEnrolled, "sign in with the device first")
            }
            profile = try await client.api.me(accessToken: session.accessToken)
            return nil
        }
        return profile
    }
}

/// Sign-in codes: the camera (or `pwakit identity scan`) hands over what it read; the person sees
/// which site asks, from where, and approves or denies.
@MainActor
public final class QRScannerInteractor {
    let app: IdentityApp
    let client: IdentityClient
    let pinPad: PinPadInteractor

    init(app: IdentityApp, client: IdentityClient, pinPad: PinPadInteractor) {
        self.app = app
        self.client = client
        self.pinPad = pinPad
    }

    /// Shows the scanner.
    public func startScanning() { app.system.setScannerState(.scanning) }

    /// Hides the scanner and forgets a scanned code.
    public func cancel() {
        app.scannedSignIn = nil
        app.system.setScannerState(.hidden)
    }

    /// Handles what the scanner read: the code's page context, for the person to check.
    public func scanned(_ text: String) async {
        app.system.setScannerState(.scanned(text))
        await IdentityInteractors.run(app) {
            do {
                let scanned = try await client.scan(text)
                app.scannedSignIn = scanned
                return "\(scanned.context.origin) asks to sign in from \(scanned.context.requesterAddress)"
            } catch {
                app.system.setScannerState(.scanning)
                throw error
            }
        }
    }

    /// Approves the scanned code: the PIN pad opens, or a biometric check signs now.
    public func approve(with kind: AuthenticatorKind) async {
        guard let scanned = app.scannedSignIn else { return }
        switch kind {
        case .pin: pinPad.request(.approveSignIn(scanned))
        case .biometric:
            await IdentityInteractors.run(app) {
                _ = try await client.approve(scanned, check: .biometric(reason: "Sign in to \(scanned.context.origin)"))
                cancel()
                return "\(scanned.context.origin) is signed in"
            }
        }
    }

    /// Denies the scanned code.
    public func deny() async {
        guard let scanned = app.scannedSignIn else { return }
        await IdentityInteractors.run(app) {
            _ = try await client.deny(scanned)
            cancel()
            return "Denied"
        }
    }
}
