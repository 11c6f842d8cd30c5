public import Foundation
public import PWAKitCore

/// The Apple files one configuration implies: the `Info.plist` keys, the app's and each
/// extension's entitlements, the privacy manifest and the server's `apple-app-site-association`.
///
/// Property lists are merged, not replaced: the keys listed in `docs/configuration.md` belong to
/// the configuration and are set (or removed) from it; every other key of an existing file is kept
/// as it was. The site-association file is the configuration's alone.
public struct AppleFiles: Sendable {
    /// The configuration rendered.
    public let configuration: PWAConfiguration
    /// Its names, resolved.
    public let identifiers: AppIdentifiers

    /// The files of `configuration`.
    public init(configuration: PWAConfiguration) {
        self.configuration = configuration
        self.identifiers = AppIdentifiers(configuration)
    }

    /// The app's `Info.plist`.
    public static let infoPlist = "Info.plist"
    /// The app's entitlements.
    public static let entitlements = "App.entitlements"
    /// The privacy manifest.
    public static let privacyManifest = "PrivacyInfo.xcprivacy"
    /// The file the server answers at `/.well-known/apple-app-site-association`.
    public static let siteAssociation = "apple-app-site-association"
    /// The most app-bound domains iOS reads from `WKAppBoundDomains`.
    public static let maximumAppBoundDomains = 10

    /// Every file, by path relative to the output directory, with its contents after merging
    /// into `existing` (which answers a file's current contents, or nil when there is none).
    /// The site-association file is left out without a team id.
    public func render(existing: (String) throws(AppleFilesError) -> Data?) throws(AppleFilesError) -> [(
        path: String, contents: Data
    )] {
        func merged(_ path: String, _ merge: ([String: PropertyList]) throws(AppleFilesError) -> [String: PropertyList])
            throws(AppleFilesError) -> (path: String, contents: Data)
        {
            var current: [String: PropertyList] = [:]
            if let data = try existing(path) {
                guard let members = try PropertyList(xml: data, file: path).dictionaryValue else {
                    throw AppleFilesError(
                        .unreadablePropertyList, "\(path) is a property list whose root is not a dictionary", field: path)
                }
                current = members
            }
            return (path, PropertyList.dictionary(try merge(current)).xmlDocument())
        }
        var files = [
            try merged(Self.infoPlist, infoPlist(merging:)),
            try merged(Self.entitlements, entitlements(merging:)),
            try merged(Self.privacyManifest, privacyManifest(merging:)),
        ]
        for name in identifiers.extensions.keys.sorted() {
            files.append(try merged("Extensions/\(name).entitlements", extensionEntitlements(merging:)))
        }
        if let association = siteAssociation() { files.append((Self.siteAssociation, association)) }
        return files
    }

    // MARK: - Info.plist

    /// `Info.plist`: bundle id and display name, the app's URL type (other URL types kept), the
    /// app-bound domains, `remote-notification` among the background modes with notifications on
    /// (other modes kept), and exactly the declared usage descriptions.
    public func infoPlist(merging existing: [String: PropertyList]) throws(AppleFilesError) -> [String: PropertyList] {
        var plist = existing
        plist["CFBundleIdentifier"] = .string(identifiers.bundleId)
        plist["CFBundleDisplayName"] = .string(identifiers.name)

        let ours = PropertyList.dictionary([
            "CFBundleTypeRole": .string("Editor"), "CFBundleURLName": .string(identifiers.bundleId),
            "CFBundleURLSchemes": .array([.string(identifiers.urlScheme)]),
        ])
        let others = (existing["CFBundleURLTypes"]?.arrayValue ?? []).filter {
            $0.dictionaryValue?["CFBundleURLName"]?.stringValue != identifiers.bundleId
        }
        plist["CFBundleURLTypes"] = .array([ours] + others)

        let domains = appBoundDomains()
        guard domains.count <= Self.maximumAppBoundDomains else {
            throw AppleFilesError(
                .tooManyAppBoundDomains,
                "origins.allowed and origins.auth name \(domains.count) domains (\(domains.joined(separator: ", "))); "
                    + "WKAppBoundDomains holds at most \(Self.maximumAppBoundDomains)",
                field: "origins.allowed")
        }
        plist["WKAppBoundDomains"] = domains.isEmpty ? nil : .array(domains.map(PropertyList.string))

        var modes = (existing["UIBackgroundModes"]?.arrayValue ?? []).filter { $0 != .string("remote-notification") }
        if configuration.features.notifications { modes.append(.string("remote-notification")) }
        plist["UIBackgroundModes"] = modes.isEmpty ? nil : .array(modes)

        let declared = configuration.identifiers?.usageDescriptions ?? [:]
        for (feature, keys) in PrivacyVocabulary.requiredUsageDescriptions
        where configuration.features.isEnabled(feature) == true {
            for key in keys where declared[key] == nil {
                throw AppleFilesError(
                    .missingUsageDescription,
                    "features.\(feature) is on, so iOS needs \(key): the sentence people see when the app asks",
                    field: "identifiers.usageDescriptions.\(key)")
            }
        }
        for key in PrivacyVocabulary.usageDescriptionKeys { plist[key] = declared[key].map(PropertyList.string) }
        return plist
    }

    /// The hosts of `origins.allowed` and `origins.auth` as WebKit's app-bound domains: without
    /// scheme, `*.`, port or path, in order, each once; `app:` start pages need none.
    func appBoundDomains() -> [String] {
        var domains: [String] = []
        for pattern in configuration.origins.allowed + configuration.origins.auth {
            var host = Substring(pattern)
            if let separator = host.range(of: "://") {
                let scheme = host[..<separator.lowerBound]
                guard scheme == "https" || scheme == "http" else { continue }
                host = host[separator.upperBound...]
            }
            host = host.prefix { $0 != "/" }
            if host.hasPrefix("[") { continue }  // an IPv6 literal is not a domain
            host = host.prefix { $0 != ":" }
            if host.hasPrefix("*.") { host = host.dropFirst(2) }
            let domain = host.lowercased()
            if !domain.isEmpty, !domain.contains("*"), !domains.contains(domain) { domains.append(domain) }
        }
        return domains
    }

    // MARK: - Entitlements

    /// `App.entitlements`: the app group, the keychain group, the associated domains, and
    /// `aps-environment`, HealthKit and Apple Pay merchant ids as the features say.
    public func entitlements(merging existing: [String: PropertyList]) -> [String: PropertyList] {
        var plist = sharedEntitlements(merging: existing)
        let domains = identifiers.associatedDomains
        plist["com.apple.developer.associated-domains"] = domains.isEmpty ? nil : .array(domains.map(PropertyList.string))
        if configuration.features.notifications {
            // NB: an archive for the App Store says production; keep it when it is already there.
            plist["aps-environment"] =
                existing["aps-environment"] == .string("production") ? .string("production") : .string("development")
        } else {
            plist["aps-environment"] = nil
        }
        if configuration.features.healthkit {
            plist["com.apple.developer.healthkit"] = .bool(true)
            plist["com.apple.developer.healthkit.access"] = existing["com.apple.developer.healthkit.access"] ?? .array([])
        } else {
            plist["com.apple.developer.healthkit"] = nil
            plist["com.apple.developer.healthkit.access"] = nil
        }
        if configuration.features.payments, let payments = configuration.payments {
            plist["com.apple.developer.in-app-payments"] = .array([.string(payments.merchantId)])
        } else {
            plist["com.apple.developer.in-app-payments"] = nil
        }
        return plist
    }

    /// An extension's entitlements: the app group and the keychain group it shares with the app.
    public func extensionEntitlements(merging existing: [String: PropertyList]) -> [String: PropertyList] {
        sharedEntitlements(merging: existing)
    }

    private func sharedEntitlements(merging existing: [String: PropertyList]) -> [String: PropertyList] {
        var plist = existing
        plist["com.apple.security.application-groups"] = .array([.string(identifiers.appGroup)])
        plist["keychain-access-groups"] = .array([.string("$(AppIdentifierPrefix)\(identifiers.keychainGroup)")])
        return plist
    }

    // MARK: - Privacy manifest

    /// The required-reason APIs the platform's own code calls, by category: monotonic clocks
    /// (`35F9.1`, elapsed time on the device) and the modification times of files in the app's and
    /// the app group's containers (`C617.1`, the event buffer's stale chunks).
    public static let accessedAPIs: [(category: String, reasons: [String])] = [
        ("NSPrivacyAccessedAPICategoryFileTimestamp", ["C617.1"]),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["35F9.1"]),
    ]

    /// `PrivacyInfo.xcprivacy`: tracking as the collected data says, the declared collected data,
    /// and the platform's required-reason APIs added to the app's own (other categories and
    /// reasons kept; tracking domains kept).
    public func privacyManifest(merging existing: [String: PropertyList]) -> [String: PropertyList] {
        var plist = existing
        let collected = configuration.identifiers?.collectedData ?? []
        plist["NSPrivacyTracking"] = .bool(collected.contains { $0.tracking })
        plist["NSPrivacyTrackingDomains"] = existing["NSPrivacyTrackingDomains"] ?? .array([])
        plist["NSPrivacyCollectedDataTypes"] = .array(
            collected.map { entry in
                .dictionary([
                    "NSPrivacyCollectedDataType": .string("NSPrivacyCollectedDataType" + entry.type),
                    "NSPrivacyCollectedDataTypeLinked": .bool(entry.linked),
                    "NSPrivacyCollectedDataTypeTracking": .bool(entry.tracking),
                    "NSPrivacyCollectedDataTypePurposes": .array(
                        entry.purposes.map { .string("NSPrivacyCollectedDataTypePurpose" + $0) }),
                ])
            })
        var accessed = existing["NSPrivacyAccessedAPITypes"]?.arrayValue ?? []
        for (category, reasons) in Self.accessedAPIs {
            if let index = accessed.firstIndex(where: {
                $0.dictionaryValue?["NSPrivacyAccessedAPIType"] == .string(category)
            }), var entry = accessed[index].dictionaryValue {
                var present = entry["NSPrivacyAccessedAPITypeReasons"]?.arrayValue ?? []
                for reason in reasons where !present.contains(.string(reason)) { present.append(.string(reason)) }
                entry["NSPrivacyAccessedAPITypeReasons"] = .array(present)
                accessed[index] = .dictionary(entry)
            } else {
                accessed.append(
                    .dictionary([
                        "NSPrivacyAccessedAPIType": .string(category),
                        "NSPrivacyAccessedAPITypeReasons": .array(reasons.map(PropertyList.string)),
                    ]))
            }
        }
        plist["NSPrivacyAccessedAPITypes"] = .array(accessed)
        return plist
    }

    // MARK: - apple-app-site-association

    /// The `apple-app-site-association` JSON: `applinks` for the universal links under the link
    /// path prefix, `webcredentials` and `activitycontinuation` when those services are declared;
    /// nil without a team id. Keys sorted, slashes unescaped, a trailing newline.
    public func siteAssociation() -> Data? {
        guard let appID = identifiers.applicationIdentifier else { return nil }
        let services = Set(identifiers.associatedDomains.compactMap { $0.split(separator: ":").first.map(String.init) })
        let prefix = identifiers.linkPathPrefix
        var document: [String: Any] = [:]
        if services.contains("applinks") {
            let components: [[String: Any]] =
                prefix.isEmpty
                ? [["/": "/*", "comment": "every path opens in the app"]]
                : [["/": prefix], ["/": prefix + "/*", "comment": "the app's links live under \(prefix)"]]
            document["applinks"] = ["details": [["appIDs": [appID], "components": components]]]
        }
        if services.contains("webcredentials") { document["webcredentials"] = ["apps": [appID]] }
        if services.contains("activitycontinuation") { document["activitycontinuation"] = ["apps": [appID]] }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return data + Data("\n".utf8)
    }
}
