/// The person's state, as the seed's showcase lays it out.
public enum UserState: Equatable, Sendable {
    /// No device is enrolled here.
    case notRegistered
    /// Enrolled; the person has not proven it is them in this run.
    case registered
    /// Proven, with the user id.
    case authenticated(String)
    /// Signed out after having been signed in.
    case unauthenticated
    /// The device works without a person (requests signed by the device only).
    case stateless
}

/// Whether this device can answer mobile-authentication requests.
public enum EnrollmentState: Equatable, Sendable {
    /// Not enrolled.
    case unenrolled
    /// Enrolled: requests are found by polling.
    case mobileEnrolled
    /// Enrolled, and push notifications bring requests.
    case pushEnrolled
}

/// What the PIN pad is asking for.
public enum PinPadState: Equatable, Sendable {
    /// Not shown.
    case hidden
    /// A new PIN, at enrolment.
    case createPin
    /// The current PIN, to prove the person.
    case validatePin
    /// A PIN change: the current PIN, then the new one.
    case changePin
}

/// What the code scanner is doing.
public enum ScannerState: Equatable, Sendable {
    /// Not shown.
    case hidden
    /// Waiting for a code.
    case scanning
    /// A code was read and is being handled.
    case scanned(String)
}
