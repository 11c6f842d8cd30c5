/// The body of `POST /v1/apps/{appId}/releases`.
public struct PublishReleaseRequest: Codable, Hashable, Sendable {
    /// Standard base64 of the exact manifest bytes as signed.
    public var manifest: String
    /// The id of the key that signed them.
    public var keyId: String
    /// Standard base64 of the Ed25519 signature.
    public var signature: String
    /// The share of users who get the release, 0–100; 100 when absent.
    public var rolloutPercent: Int?

    /// Creates a publication.
    public init(manifest: String, keyId: String, signature: String, rolloutPercent: Int? = nil) {
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
        self.rolloutPercent = rolloutPercent
    }
}

/// A published release as the server hands it to hosts.
public struct ReleaseResponse: Codable, Hashable, Sendable {
    /// The app.
    public var appId: String
    /// The channel.
    public var channel: String
    /// The semantic version.
    public var version: String
    /// Lowercase hex SHA-256 of the exact manifest bytes.
    public var bundleHash: String
    /// The share of users who get it.
    public var rolloutPercent: Int
    /// Standard base64 of the exact manifest bytes as signed.
    public var manifest: String
    /// The id of the key that signed them.
    public var keyId: String
    /// Standard base64 of the Ed25519 signature.
    public var signature: String
    /// Where each blob can be fetched: `blobBaseURL + sha256`.
    public var blobBaseURL: String

    /// Creates a release answer.
    public init(
        appId: String, channel: String, version: String, bundleHash: String, rolloutPercent: Int, manifest: String,
        keyId: String, signature: String, blobBaseURL: String
    ) {
        self.appId = appId
        self.channel = channel
        self.version = version
        self.bundleHash = bundleHash
        self.rolloutPercent = rolloutPercent
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
        self.blobBaseURL = blobBaseURL
    }
}

/// The answer to `GET /v1/apps/{appId}/releases/latest`.
public struct LatestReleaseResponse: Codable, Hashable, Sendable {
    /// Whether the caller's `current` version is the newest it may run.
    public var upToDate: Bool
    /// The release to install, when not up to date.
    public var release: ReleaseResponse?

    /// Creates an answer.
    public init(upToDate: Bool, release: ReleaseResponse?) {
        self.upToDate = upToDate
        self.release = release
    }
}

/// The body of `PUT /v1/apps/{appId}/channels/{channel}/releases/{version}/rollout`.
public struct RolloutRequest: Codable, Hashable, Sendable {
    /// The new share of users, 0–100.
    public var rolloutPercent: Int

    /// Creates a rollout change.
    public init(rolloutPercent: Int) { self.rolloutPercent = rolloutPercent }
}
