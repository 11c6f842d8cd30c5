/// What the showcase page shows: the root state's enums and data, flattened for the bridge.
/// Every `identity.*` action answers one.
public struct IdentitySnapshot: Codable, Sendable, Hashable {
    /// `notRegistered`, `registered`, `authenticated`, `unauthenticated` or `stateless`.
    public var userState: String
    /// The user id when `userState` is `authenticated`.
    public var authenticatedUser: String?
    /// `unenrolled`, `mobileEnrolled` or `pushEnrolled`.
    public var enrollmentState: String
    /// `hidden`, `createPin`, `validatePin` or `changePin`.
    public var pinPadState: String
    /// What the open pad is for: `enrol`, `signIn`, `approve`, `approveSignIn`, `changePin`, `addBiometric`.
    public var pinPadIntent: String?
    /// `hidden`, `scanning` or `scanned`.
    public var scannerState: String
    /// Whether the stored identity has been read.
    public var isSDKInitialized: Bool
    /// Whether a call to the server is on its way.
    public var isProcessing: Bool
    /// The last message for the person.
    public var lastInfoDescription: String?
    /// This device.
    public var device: Device
    /// The users enrolled here.
    public var users: [User]
    /// Requests waiting for an answer (never with their number: that is on the requesting screen).
    public var requests: [Request]
    /// Who is signed in with the device, when someone is.
    public var session: User?
    /// The profile last fetched with the session (`identity.fetchProfile`).
    public var profile: User?
    /// A scanned sign-in code waiting for the person's answer.
    public var scannedSignIn: ScannedSignIn?
    /// The address a sign-in link was mailed to, while it is awaited.
    public var awaitedLinkEmail: String?
    /// Whether a camera (on Linux: the window read with zbar) can scan codes.
    public var hasCamera: Bool
    /// The PIN policy's lengths.
    public var pinLength: ClosedRangeValue
    /// The computer that signs in with a code, on the other screen.
    public var computer: Computer
    /// The website the showcase plays, when it was given an app backend's credential.
    public var website: Website?

    /// This device as the page shows it.
    public struct Device: Codable, Sendable, Hashable {
        /// The server's id for the device.
        public var deviceId: String?
        /// The name given at enrolment.
        public var name: String?
        /// `pin`, and `biometric` when it is on.
        public var authenticators: [String]
        /// Wrong PINs the device may still enter.
        public var pinAttemptsLeft: Int?
    }

    /// A person.
    public struct User: Codable, Sendable, Hashable {
        /// The user id.
        public var id: String
        /// The email address.
        public var email: String
        /// The name, when known.
        public var displayName: String?
    }

    /// A pending request as the device shows it.
    public struct Request: Codable, Sendable, Hashable {
        /// The transaction id.
        public var id: String
        /// The app that asks.
        public var appId: String
        /// What the person is asked to confirm.
        public var message: String
        /// Data to sign, if any.
        public var data: String?
        /// The requester's address.
        public var requesterAddress: String
        /// The requester's user agent.
        public var requesterAgent: String
        /// When it expires (ISO 8601).
        public var expiresAt: String
    }

    /// A scanned sign-in code's context.
    public struct ScannedSignIn: Codable, Sendable, Hashable {
        /// The page's origin.
        public var origin: String
        /// The page's address.
        public var requesterAddress: String
        /// The page's user agent.
        public var requesterAgent: String
        /// When the code expires (ISO 8601).
        public var expiresAt: String
    }

    /// A closed range for the page.
    public struct ClosedRangeValue: Codable, Sendable, Hashable {
        /// The lower bound.
        public var min: Int
        /// The upper bound.
        public var max: Int
    }

    /// The other screen's computer, signing in with a code the device scans.
    public struct Computer: Codable, Sendable, Hashable {
        /// `idle`, `waiting` (a code is shown), `signedIn` or `failed`.
        public var status: String
        /// The code as an image (`data:image/svg+xml;base64,…`) while one is shown.
        public var codeImage: String?
        /// Who the computer is signed in as.
        public var signedInAs: String?
        /// What went wrong, in words.
        public var error: String?
    }

    /// The website side: the last request it made and where it stands.
    public struct Website: Codable, Sendable, Hashable {
        /// The last request's id.
        public var requestId: String?
        /// The number the website shows, to be typed on the device.
        public var number: Int?
        /// `pending`, `approved`, `denied`, `rejected` or `expired`.
        public var status: String?
        /// Why it was denied or rejected.
        public var reason: String?
        /// What went wrong the last time the website asked, in words.
        public var error: String?
    }
}

extension UserState {
    var name: String {
        switch self {
        case .notRegistered: "notRegistered"
        case .registered: "registered"
        case .authenticated: "authenticated"
        case .unauthenticated: "unauthenticated"
        case .stateless: "stateless"
        }
    }
}

extension EnrollmentState {
    var name: String {
        switch self {
        case .unenrolled: "unenrolled"
        case .mobileEnrolled: "mobileEnrolled"
        case .pushEnrolled: "pushEnrolled"
        }
    }
}

extension PinPadState {
    var name: String {
        switch self {
        case .hidden: "hidden"
        case .createPin: "createPin"
        case .validatePin: "validatePin"
        case .changePin: "changePin"
        }
    }
}

extension ScannerState {
    var name: String {
        switch self {
        case .hidden: "hidden"
        case .scanning: "scanning"
        case .scanned: "scanned"
        }
    }
}

extension PinPadInteractor.Intent {
    var name: String {
        switch self {
        case .enrol: "enrol"
        case .signIn: "signIn"
        case .approve: "approve"
        case .approveSignIn: "approveSignIn"
        case .changePin: "changePin"
        case .addBiometric: "addBiometric"
        }
    }
}
