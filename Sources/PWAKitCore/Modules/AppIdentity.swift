/// Who the app is: what `pwa-config.json` and the host's build say about it.
public struct AppIdentity: Sendable, Hashable, Codable {
    /// The display name.
    public var name: String
    /// The reverse-DNS bundle identifier; also the key of the app's website data.
    public var bundleID: String
    /// The marketing version, e.g. `1.2.0`.
    public var version: String
    /// The build number.
    public var build: String

    /// Creates an identity.
    public init(name: String, bundleID: String, version: String = "1.0.0", build: String = "1") {
        self.name = name
        self.bundleID = bundleID
        self.version = version
        self.build = build
    }
}
