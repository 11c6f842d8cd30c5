public import PWAKitAPI

/// The PIN pad: what it was opened for, and what a typed PIN does then. Other interactors open it
/// with ``request(_:)``; the view calls ``submit(_:)`` with what the person typed.
@MainActor
public final class PinPadInteractor {
    /// Why the pad is open.
    public enum Intent: Sendable {
        /// Enrol this device for `user` (a new PIN, typed twice).
        case enrol(name: String, user: UserResponse, accessToken: String)
        /// Sign in with the device.
        case signIn
        /// Approve a request, with the number typed from the requesting screen.
        case approve(TransactionDetailsResponse, typedNumber: Int)
        /// Let the page of a scanned sign-in code in.
        case approveSignIn(IdentityClient.ScannedSignIn)
        /// Change the PIN: the current one, then the new one twice.
        case changePin
        /// Add the biometric authenticator.
        case addBiometric
    }

    let app: IdentityApp
    let client: IdentityClient
    /// Why the pad is open, if it is.
    public private(set) var intent: Intent?
    /// The PINs typed so far for an intent that takes more than one (a new PIN and its confirmation).
    private var typed: [String] = []
    /// Whether a PIN is on its way to the server.
    private var submitting = false

    /// A pad over the root state and the client.
    public init(app: IdentityApp, client: IdentityClient) {
        self.app = app
        self.client = client
    }

    /// Opens the pad for `intent`.
    public func request(_ intent: Intent) {
        self.intent = intent
        typed = []
        switch intent {
        case .enrol: app.system.setPinPadState(.createPin)
        case .changePin: app.system.setPinPadState(.changePin)
        case .signIn, .approve, .approveSignIn, .addBiometric: app.system.setPinPadState(.validatePin)
        }
    }

    /// Closes the pad without doing anything.
    public func cancel() {
        intent = nil
        typed = []
        app.system.setPinPadState(.hidden)
    }

    /// Handles one typed PIN: asks for the confirmation (or the new PIN) when the intent needs
    /// another, else carries the intent out and closes the pad. What happened is in
    /// `lastInfoDescription`.
    public func submit(_ pin: String) async {
        // NB: one PIN at a time: a double tap must not send a second, counted attempt.
        guard let intent, !submitting else { return }
        typed.append(pin)
        switch intent {
        case .enrol(let name, let user, let token):
            if typed.count == 1 {
                do { try client.policy.check(pin) } catch {
                    fail(error)
                    return
                }
                app.system.lastInfoDescription = "Type the new PIN again"
                return
            }
            guard typed[0] == typed[1] else { return mismatch() }
            await finish {
                let device = try await self.client.enrol(name: name, pin: pin, user: user, accessToken: token)
                self.app.registeredUsers = [RegisteredUser(id: user.id, email: user.email)]
                self.app.deviceData.deviceId = device.id
                self.app.deviceData.name = device.name
                self.app.deviceData.authenticators = device.authenticators
                self.app.deviceData.pinAttemptsLeft = device.pinAttemptsLeft
                self.app.system.setUserState(.registered)
                self.app.system.setEnrollmentState(.mobileEnrolled)
                return "This device is enrolled"
            }
        case .signIn:
            await finish {
                let session = try await self.client.signIn(.pin(pin))
                self.app.session = session
                self.app.system.setUserState(.authenticated(session.user.id))
                return "Signed in as \(session.user.email)"
            }
        case .approve(let details, let number):
            await finish {
                let status = try await self.client.approve(details, typedNumber: number, check: .pin(pin))
                self.app.answered(details.id)
                return status.status == "approved" ? "Approved" : "The request ended as \(status.status)"
            }
        case .approveSignIn(let scanned):
            await finish {
                let status = try await self.client.approve(scanned, check: .pin(pin))
                self.app.scannedSignIn = nil
                self.app.system.setScannerState(.hidden)
                return status.status == "approved" ? "\(scanned.context.origin) is signed in" : "Not signed in"
            }
        case .changePin:
            if typed.count == 1 {
                app.system.lastInfoDescription = "Type the new PIN"
                return
            }
            if typed.count == 2 {
                do { try client.policy.check(pin, field: "newPin") } catch {
                    typed.removeLast()
                    fail(error, keepOpen: true)
                    return
                }
                app.system.lastInfoDescription = "Type the new PIN again"
                return
            }
            guard typed[1] == typed[2] else { return mismatch() }
            let current = typed[0]
            await finish {
                try await self.client.changePIN(current: current, new: pin)
                return "The PIN is changed"
            }
        case .addBiometric:
            await finish {
                try await self.client.addBiometric(pin: pin)
                self.app.deviceData.authenticators = [.pin, .biometric]
                return "Biometric sign-in is on"
            }
        }
    }

    private func mismatch() {
        intent.map(request)
        app.system.lastInfoDescription = IdentityError(.pinMismatch, "The PINs differ; start again").message
    }

    private func fail(_ error: any Error, keepOpen: Bool = false) {
        if !keepOpen { typed.removeAll() }
        app.system.lastInfoDescription = IdentityInteractors.describe(error)
    }

    private func finish(_ work: @MainActor () async throws -> String) async {
        submitting = true
        defer { submitting = false }
        await IdentityInteractors.run(app) { try await work() }
        intent = nil
        typed = []
        app.system.setPinPadState(.hidden)
    }
}
