import Foundation
public import Observation
public import PWAKitAPI

/// The SDK and person state of the showcase (the seed's `System`): each enum changes only through
/// its setter, so transitions stay in one place.
@MainActor
@Observable
public final class IdentitySystem {
    /// Whether ``SDKInteractor/start()`` has read the stored identity.
    public var isSDKInitialized = false
    /// Whether a call to the server is on its way.
    public var isProcessing = false
    /// The person's state.
    public private(set) var userState: UserState = .notRegistered
    /// Whether the device answers mobile-authentication requests.
    public private(set) var enrollmentState: EnrollmentState = .unenrolled
    /// What the PIN pad asks for.
    public private(set) var pinPadState: PinPadState = .hidden
    /// What the scanner does.
    public private(set) var scannerState: ScannerState = .hidden
    /// The last message for the person: what happened or what went wrong, in words.
    public var lastInfoDescription: String?

    /// A fresh system.
    public init() {}

    /// Sets the person's state.
    public func setUserState(_ state: UserState) { userState = state }
    /// Sets the enrolment state.
    public func setEnrollmentState(_ state: EnrollmentState) { enrollmentState = state }
    /// Shows the PIN pad for `state` (or hides it).
    public func setPinPadState(_ state: PinPadState) { pinPadState = state }
    /// Sets the scanner's state.
    public func setScannerState(_ state: ScannerState) { scannerState = state }
}

/// This device as the showcase shows it (the seed's `DeviceData`).
public struct DeviceData: Equatable, Sendable {
    /// The server's id for the device.
    public var deviceId: String?
    /// The name given at enrolment.
    public var name: String?
    /// The authenticators the server lists.
    public var authenticators: [AuthenticatorKind] = []
    /// Wrong PINs the device may still enter.
    public var pinAttemptsLeft: Int?

    /// Empty device data.
    public init() {}
}

/// A user enrolled on this device (the seed's `UserData`).
public struct RegisteredUser: Hashable, Sendable, Identifiable {
    /// The user id.
    public var id: String
    /// The email address.
    public var email: String

    /// Creates a user entry.
    public init(id: String, email: String) {
        self.id = id
        self.email = email
    }
}

/// The root state of the mobile-identity showcase (the seed's `ShowcaseApp`): one source of truth
/// the interactors update and the views read.
@MainActor
@Observable
public final class IdentityApp {
    /// SDK and person state.
    public var system = IdentitySystem()
    /// This device.
    public var deviceData = DeviceData()
    /// The users enrolled here (one by default).
    public var registeredUsers: Set<RegisteredUser> = []
    /// Requests waiting for an answer, with their details once fetched.
    public var pendingTransactions: [TransactionDetailsResponse] = []
    /// The session of the signed-in person, when there is one.
    public var session: TokenPairResponse?
    /// A scanned sign-in code waiting for the person's answer.
    public var scannedSignIn: IdentityClient.ScannedSignIn?
    /// Requests answered here: a refresh that started before an answer does not bring them back.
    var answeredTransactions: Set<String> = []

    /// Removes an answered request from ``pendingTransactions``, for good.
    func answered(_ id: String) {
        answeredTransactions.insert(id)
        pendingTransactions.removeAll { $0.id == id }
    }

    /// A fresh app state.
    public init() {}
}
