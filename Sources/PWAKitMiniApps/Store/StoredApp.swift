public import Foundation

/// What the store keeps per app (`apps/<appId>/state.json`), replaced in one atomic rename: the
/// whole of "which release runs" changes at once or not at all.
public struct StoredApp: Codable, Sendable, Hashable {
    /// The bundle hash of the release that runs.
    public var active: String?
    /// The release that ran before ``active``: where a failed release rolls back to.
    public var previous: String?
    /// A release installed to become active at the next launch.
    public var pending: String?
    /// The active release while it has not yet reported ready from its own document.
    public var probation: Probation?
    /// Releases that failed to become ready; never activated again automatically.
    public var bad: [String]
    /// The channel the app follows.
    public var channel: String?
    /// The releases whose install completed: the state took them in. A release record not listed
    /// here is an install killed between its record and this state (``Updater`` finishes it). `nil`
    /// in state written before the list existed.
    public var adopted: [String]?

    /// An app with nothing installed.
    public init() {
        bad = []
    }

    /// A release on probation: activated, not yet ready.
    public struct Probation: Codable, Sendable, Hashable {
        /// The release.
        public var bundleHash: String
        /// How many launches it has had without a ready signal.
        public var launches: Int
    }
}

/// One release in the store: the envelope as verified at install, and when it arrived.
public struct InstalledRelease: Codable, Sendable, Hashable {
    /// The app.
    public var appId: String
    /// The semantic version.
    public var version: String
    /// The channel it was published on.
    public var channel: String
    /// Lowercase hex SHA-256 of the exact manifest bytes; also its file name.
    public var bundleHash: String
    /// Standard base64 of the exact manifest bytes as signed.
    public var manifest: String
    /// The key that signed it.
    public var keyId: String
    /// Standard base64 of the signature.
    public var signature: String
    /// When it was installed.
    public var installedAt: Date
}

/// How much the store holds.
public struct StoreUsage: Sendable, Hashable {
    /// Per app: the bytes of the distinct files its installed releases reference (a file shared
    /// with another app counts for both).
    public var bytesByApp: [String: Int]
    /// The bytes of all stored files, each counted once.
    public var totalBytes: Int
    /// The bytes of interrupted downloads kept to resume.
    public var partialBytes: Int
}

/// What a garbage collection removed.
public struct CollectionReport: Sendable, Hashable {
    /// The files removed.
    public var removedBlobs: [String]
    /// Their bytes.
    public var freedBytes: Int
}
