/// The `identifiers` section of `pwa-config.json`: every name the app is known by outside its
/// own code — its URL scheme and sign-in callback, app group, keychain group and service,
/// associated domains, app extensions, error domains — and the privacy declarations the Apple
/// files carry. Each field is optional; ``AppIdentifiers`` fills what is absent from `app.bundleId`.
///
/// `pwakit sync` renders `Info.plist` keys, the entitlements, `PrivacyInfo.xcprivacy` and the
/// server's `apple-app-site-association` from it; code reads it through ``AppIdentifiers``.
public struct IdentifiersSection: Codable, Sendable, Equatable {
    /// The Apple developer team id (10 characters of `A-Z` and `0-9`); needed for associated domains.
    public var teamId: String?
    /// The app's own URL scheme (`myapp` in `myapp://items/42`).
    public var urlScheme: String?
    /// Where sign-in providers send the person back: a URL on the app's scheme or an `https` universal link.
    public var authCallback: String?
    /// The app group the app and its extensions share (`group.` and a reverse-DNS name).
    public var appGroup: String?
    /// The keychain access group shared with the extensions, without the team prefix.
    public var keychainGroup: String?
    /// The keychain service the app's secrets are stored under.
    public var keychainService: String?
    /// Associated domains as the entitlement writes them: `applinks:example.com`, `webcredentials:example.com`.
    public var associatedDomains: [String]?
    /// The path universal links live under (`/open`); absent or `/` for the whole site.
    public var linkPathPrefix: String?
    /// The app's extensions: a name (`share`) and its bundle id, which starts with the app's.
    public var extensions: [String: String]?
    /// Error domains by name (`share` → `com.example.app.share`).
    public var errorDomains: [String: String]?
    /// `Info.plist` usage descriptions by key (`NSCameraUsageDescription` → the sentence people see).
    public var usageDescriptions: [String: String]?
    /// The data the app collects, for `PrivacyInfo.xcprivacy`.
    public var collectedData: [CollectedData]?

    /// Creates the section.
    public init(
        teamId: String? = nil, urlScheme: String? = nil, authCallback: String? = nil, appGroup: String? = nil,
        keychainGroup: String? = nil, keychainService: String? = nil, associatedDomains: [String]? = nil,
        linkPathPrefix: String? = nil, extensions: [String: String]? = nil, errorDomains: [String: String]? = nil,
        usageDescriptions: [String: String]? = nil, collectedData: [CollectedData]? = nil
    ) {
        self.teamId = teamId
        self.urlScheme = urlScheme
        self.authCallback = authCallback
        self.appGroup = appGroup
        self.keychainGroup = keychainGroup
        self.keychainService = keychainService
        self.associatedDomains = associatedDomains
        self.linkPathPrefix = linkPathPrefix
        self.extensions = extensions
        self.errorDomains = errorDomains
        self.usageDescriptions = usageDescriptions
        self.collectedData = collectedData
    }

    /// One kind of data the app collects, as the privacy manifest declares it.
    public struct CollectedData: Codable, Sendable, Equatable {
        /// The data type without Apple's prefix: `ProductInteraction`, `UserID`, `CrashData`, …
        public var type: String
        /// Whether the data is linked to the person's identity.
        public var linked: Bool
        /// Whether the data is used for tracking.
        public var tracking: Bool
        /// Why it is collected, without Apple's prefix: `Analytics`, `AppFunctionality`, …
        public var purposes: [String]

        /// Creates a declaration.
        public init(type: String, linked: Bool, tracking: Bool, purposes: [String]) {
            self.type = type
            self.linked = linked
            self.tracking = tracking
            self.purposes = purposes
        }
    }

    /// The keys of the section, in the documented order.
    static let keys = [
        "teamId", "urlScheme", "authCallback", "appGroup", "keychainGroup", "keychainService", "associatedDomains",
        "linkPathPrefix", "extensions", "errorDomains", "usageDescriptions", "collectedData",
    ]
    /// The keys of a `collectedData` entry.
    static let collectedDataKeys = ["type", "linked", "tracking", "purposes"]
}
