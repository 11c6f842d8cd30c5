/// Everything the launcher's page shows, in one value: what the `launcher` module answers and
/// sends as its `launcher.state` event whenever any of it changes.
public struct LauncherSnapshot: Codable, Sendable, Hashable {
    /// The screen: `starting`, `login`, `launcher` or `locked`.
    public var route: String
    /// Why the person is back at the login screen (the server ended the session), if so.
    public var notice: String?
    /// Who is signed in.
    public var user: LauncherUser?
    /// The sign-in and registration form's state.
    public var signIn: SignInState
    /// The grid.
    public var catalog: CatalogState
    /// Space taken on this device.
    public var storage: StorageState
    /// The mini-app being opened or shown, or the outcome of the last one.
    public var running: RunningApp?
    /// The platform server.
    public var server: String
    /// Biometric unlock.
    public var unlock: UnlockState
}

/// Biometric unlock, as settings and the lock screen show it.
public struct UnlockState: Codable, Sendable, Hashable {
    /// Whether the device can check biometrics now.
    public var available: Bool
    /// The sensor: `faceID`, `touchID`, `opticID` or `none`.
    public var biometryType: String
    /// Whether biometric unlock is on.
    public var enabled: Bool
    /// Why the last unlock (or turning it on or off) did not work.
    public var error: String?
}

/// The signed-in person, as the launcher shows them.
public struct LauncherUser: Codable, Sendable, Hashable {
    /// The stable user id.
    public var id: String
    /// The email address.
    public var email: String
    /// The name to show.
    public var displayName: String
}

/// A problem with one form field.
public struct FieldProblem: Codable, Sendable, Hashable {
    /// `email`, `password`, `confirmation` or `displayName`.
    public var field: String
    /// What is wrong, as a sentence.
    public var message: String
}

/// The sign-in form.
public struct SignInState: Codable, Sendable, Hashable {
    /// Whether a request is on its way.
    public var isSubmitting: Bool
    /// What went wrong as a whole.
    public var error: String?
    /// What is wrong per field.
    public var fieldErrors: [FieldProblem]
}

/// The grid's state.
public struct CatalogState: Codable, Sendable, Hashable {
    /// `loading`, `apps` or `failed`.
    public var status: String
    /// Why it failed.
    public var error: String?
    /// Whether the apps shown are the kept copy because the server cannot be reached.
    public var offline: Bool
    /// Whether a refresh is on its way.
    public var refreshing: Bool
    /// The apps.
    public var apps: [AppTile]
}

/// One app of the grid.
public struct AppTile: Codable, Sendable, Hashable {
    /// The app id.
    public var id: String
    /// Its name.
    public var name: String
    /// One line about it.
    public var description: String
    /// Its icon's URL (https or data), possibly empty.
    public var icon: String
    /// The installed version (the pending one when an update waits for the next launch).
    public var installedVersion: String?
    /// A downloaded update that becomes active at the next launch.
    public var pendingVersion: String?
    /// A newer release the server offers, not downloaded yet.
    public var availableVersion: String?
    /// Releases that failed to become ready and were rolled back.
    public var rolledBack: Int
    /// Bytes the app's files take.
    public var bytes: Int
    /// The channel followed.
    public var channel: String
    /// The channels the catalog offers.
    public var channels: [String]
    /// An install or update under way.
    public var progress: TransferProgress?
    /// The last install or update failure, as a sentence.
    public var failure: String?
}

/// Bytes and files of a transfer.
public struct TransferProgress: Codable, Sendable, Hashable {
    /// Bytes downloaded.
    public var bytesDone: Int
    /// Bytes to download in all (0 while unknown).
    public var bytesTotal: Int
}

/// Space taken on this device.
public struct StorageState: Codable, Sendable, Hashable {
    /// The bytes of every stored file, each counted once.
    public var totalBytes: Int
    /// The last failure, as a sentence.
    public var error: String?
}

/// The mini-app being opened or shown.
public struct RunningApp: Codable, Sendable, Hashable {
    /// The app id.
    public var appId: String
    /// Its name.
    public var name: String
    /// `installing`, `loading`, `ready`, `failed` or `rolledBack`.
    public var state: String
    /// The version that runs (or ran).
    public var version: String?
    /// Why it failed or was rolled back.
    public var reason: String?
    /// Install progress before the first launch.
    public var progress: TransferProgress?
    /// Whether it is on screen now.
    public var shown: Bool
}
