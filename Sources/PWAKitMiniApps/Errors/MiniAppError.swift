/// Why a mini-app operation failed: a stable code, a sentence, the field at fault and the cause.
public struct MiniAppError: Error, Sendable, CustomStringConvertible {
    /// A stable code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The release is signed by a key the device does not pin.
        public static let untrustedKey = Code("untrusted_key")
        /// The signature does not verify over the manifest bytes.
        public static let badSignature = Code("bad_signature")
        /// The manifest is malformed, or is not the release that was asked for.
        public static let invalidManifest = Code("invalid_manifest")
        /// The version is not above the newest release installed (anti-rollback).
        public static let versionNotNewer = Code("version_not_newer")
        /// Downloaded bytes do not hash to the address they were fetched from.
        public static let hashMismatch = Code("hash_mismatch")
        /// A file the release needs is not in the store.
        public static let missingBlobs = Code("missing_blobs")
        /// The release was marked bad (it failed to become ready) and is not activated again automatically.
        public static let releaseMarkedBad = Code("release_marked_bad")
        /// The app, or the release, is not installed.
        public static let notInstalled = Code("not_installed")
        /// Reading or writing the store failed.
        public static let storageFailed = Code("storage_failed")
        /// The store's files are not what this version writes (damaged, or from elsewhere).
        public static let storeCorrupt = Code("store_corrupt")
        /// No account is signed in.
        public static let notSignedIn = Code("not_signed_in")
        /// An argument is out of its allowed range.
        public static let invalidArgument = Code("invalid_argument")
        /// The catalog has no such app.
        public static let unknownApp = Code("unknown_app")
    }

    /// The stable code.
    public let code: Code
    /// A sentence a person understands.
    public let message: String
    /// The field at fault (`manifest.version`, `files[3].sha256`), when there is one.
    public let field: String?
    /// The error underneath, when there is one.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, field: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.underlying = underlying
    }

    /// `code (field): message`.
    public var description: String { "\(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
}
