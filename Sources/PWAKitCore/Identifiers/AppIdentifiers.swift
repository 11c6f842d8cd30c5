/// Every name the app is known by outside its own code, resolved from one configuration: the
/// `identifiers` section where it says, `app.bundleId` where it is silent. Code reads these
/// names here and nowhere else, so a renamed app group or scheme is one edit in `pwa-config.json`.
///
/// | Name | Default |
/// |---|---|
/// | ``urlScheme`` | the bundle id in lowercase |
/// | ``authCallback`` | `<urlScheme>://auth/callback` |
/// | ``appGroup`` | `group.<bundleId>` |
/// | ``keychainGroup``, ``keychainService`` | the bundle id |
/// | ``errorDomain(_:)`` | `<bundleId>.<name>` |
public struct AppIdentifiers: Sendable, Equatable {
    /// The name shown to people (`app.name`).
    public let name: String
    /// The app's bundle id (`app.bundleId`).
    public let bundleId: String
    /// The Apple developer team id, when declared.
    public let teamId: String?
    /// The app's own URL scheme.
    public let urlScheme: String
    /// Where sign-in providers send the person back.
    public let authCallback: String
    /// The app group the app and its extensions share.
    public let appGroup: String
    /// The keychain access group, without the team prefix.
    public let keychainGroup: String
    /// The keychain service secrets are stored under.
    public let keychainService: String
    /// Associated domains as the entitlement writes them (`applinks:example.com`).
    public let associatedDomains: [String]
    /// The path universal links live under: `""` for the whole site, else `/` and segments (`/open`).
    public let linkPathPrefix: String
    /// The extensions' bundle ids by name.
    public let extensions: [String: String]
    /// The declared error domains by name.
    public let errorDomains: [String: String]

    /// Resolves the names of `configuration`.
    public init(_ configuration: PWAConfiguration) {
        let section = configuration.identifiers ?? IdentifiersSection()
        name = configuration.app.name
        bundleId = configuration.app.bundleId
        teamId = section.teamId
        let scheme = section.urlScheme ?? configuration.app.bundleId.lowercased()
        urlScheme = scheme
        authCallback = section.authCallback ?? "\(scheme)://auth/callback"
        appGroup = section.appGroup ?? "group.\(configuration.app.bundleId)"
        keychainGroup = section.keychainGroup ?? configuration.app.bundleId
        keychainService = section.keychainService ?? configuration.app.bundleId
        associatedDomains = section.associatedDomains ?? []
        let prefix = section.linkPathPrefix ?? ""
        linkPathPrefix = prefix == "/" ? "" : prefix
        extensions = section.extensions ?? [:]
        errorDomains = section.errorDomains ?? [:]
    }

    /// `<teamId>.<bundleId>`, the app's id in the `apple-app-site-association` file; nil without a team id.
    public var applicationIdentifier: String? { teamId.map { "\($0).\(bundleId)" } }

    /// The hosts of the `applinks:` associated domains, in order, without wildcard entries or a
    /// `?mode=` suffix: where universal links into the app are read.
    public var universalLinkHosts: [String] {
        associatedDomains.compactMap { entry in
            guard let domain = Self.domain(of: entry, service: "applinks"), !domain.hasPrefix("*.") else { return nil }
            return domain
        }
    }

    /// The error domain declared as `name`, else `<bundleId>.<name>`.
    public func errorDomain(_ name: String) -> String { errorDomains[name] ?? "\(bundleId).\(name)" }

    /// The domain of an associated-domain entry of `service` (`applinks:a.example?mode=developer` → `a.example`).
    static func domain(of entry: String, service: String) -> String? {
        guard entry.hasPrefix(service + ":") else { return nil }
        let rest = entry.dropFirst(service.count + 1)
        return String(rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? rest)
    }

    /// Schemes an app may not claim: the web's, the platform's own `app:` and the system's.
    static let reservedSchemes: Set<String> = [
        "about", "app", "blob", "data", "facetime", "file", "ftp", "http", "https", "itms-apps", "javascript", "mailto",
        "maps", "sms", "tel", "ws", "wss",
    ]

    /// Why `scheme` cannot be the app's URL scheme, or nil when it can: RFC 3986 syntax (a letter,
    /// then letters, digits, `+`, `-`, `.`), lowercase, at most 64 characters, not reserved.
    static func schemeProblem(_ scheme: String) -> String? {
        let bytes = Array(scheme.utf8)
        guard let first = bytes.first else { return "is empty" }
        guard bytes.count <= 64 else { return "is longer than 64 characters" }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        guard isLower(first) else { return "must start with a lowercase letter a-z" }
        let valid = bytes.allSatisfy { isLower($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
        guard valid else { return "may only hold a-z, 0-9, '+', '-' and '.' (RFC 3986, lowercase)" }
        if reservedSchemes.contains(scheme) { return "is reserved (the web's, the platform's app: or the system's)" }
        return nil
    }
}
