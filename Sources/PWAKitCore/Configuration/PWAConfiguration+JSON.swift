public import Foundation

extension PWAConfiguration {
    /// The configuration as `pwa-config.json` text: sections in the documented order
    /// (version, app, origins, features, appearance, notifications, payments, flags, identifiers,
    /// shareTarget), two-space indents,
    /// a trailing newline. Decoding it gives back an equal configuration.
    public func encodedJSON() -> Data {
        Data((jsonTree.prettyPrinted() + "\n").utf8)
    }

    /// ``encodedJSON()`` starting with a `"$schema"` member naming `schema` (a path or URL editors resolve).
    public func encodedJSON(schema: String) -> Data {
        guard case .object(let members) = jsonTree else { return encodedJSON() }
        let tree = ConfigurationJSON.object([.init(key: "$schema", value: .string(schema), line: 0)] + members)
        return Data((tree.prettyPrinted() + "\n").utf8)
    }

    var jsonTree: ConfigurationJSON {
        func member(_ key: String, _ value: ConfigurationJSON) -> ConfigurationJSON.Member {
            .init(key: key, value: value, line: 0)
        }
        func strings(_ list: [String]) -> ConfigurationJSON { .array(list.map(ConfigurationJSON.string)) }

        var originMembers = [
            member("allowed", strings(origins.allowed)),
            member("auth", strings(origins.auth)),
            member("external", strings(origins.external)),
        ]
        if let grants = origins.grants {
            originMembers.append(
                member("grants", .object(grants.keys.sorted().map { member($0, strings(grants[$0] ?? [])) })))
        }
        let featureMembers = FeatureFlags.names.map { name in member(name, .bool(features.isEnabled(name) ?? false)) }
        var appearanceMembers = [
            member("displayMode", .string(appearance.displayMode.rawValue)),
            member("pullToRefresh", .bool(appearance.pullToRefresh)),
            member("statusBarStyle", .string(appearance.statusBarStyle.rawValue)),
            member("orientationLock", .string(appearance.orientationLock.rawValue)),
        ]
        if let color = appearance.backgroundColor {
            appearanceMembers.append(member("backgroundColor", .string(color.description)))
        }
        if let color = appearance.themeColor {
            appearanceMembers.append(member("themeColor", .string(color.description)))
        }

        var members = [
            member("version", .number(String(version))),
            member(
                "app",
                .object([
                    member("name", .string(app.name)),
                    member("bundleId", .string(app.bundleId)),
                    member("startUrl", .string(app.startUrl)),
                ])),
            member("origins", .object(originMembers)),
            member("features", .object(featureMembers)),
            member("appearance", .object(appearanceMembers)),
        ]
        if let notifications {
            members.append(
                member("notifications", .object([member("provider", .string(notifications.provider.rawValue))])))
        }
        if let payments {
            var fields = [
                member("merchantId", .string(payments.merchantId)), member("countryCode", .string(payments.countryCode)),
                member("merchantName", .string(payments.merchantName)),
            ]
            if let networks = payments.supportedNetworks {
                fields.append(member("supportedNetworks", .array(networks.map { .string($0) })))
            }
            members.append(member("payments", .object(fields)))
        }
        if let flags {
            members.append(
                member(
                    "flags",
                    .object(flags.keys.sorted().compactMap { key in flags[key].map { member(key, $0.configurationJSON) } })))
        }
        if let identifiers { members.append(member("identifiers", identifiers.jsonTree)) }
        if let shareTarget {
            var fields = [member("action", .string(shareTarget.action))]
            if let method = shareTarget.method { fields.append(member("method", .string(method))) }
            if let enctype = shareTarget.enctype { fields.append(member("enctype", .string(enctype))) }
            let params = [
                ("title", shareTarget.params.title), ("text", shareTarget.params.text), ("url", shareTarget.params.url),
            ]
            fields.append(member("params", .object(params.compactMap { key, value in value.map { member(key, .string($0)) } })))
            members.append(member("shareTarget", .object(fields)))
        }
        return .object(members)
    }
}

extension IdentifiersSection {
    /// The section as a configuration tree node: present fields in the documented order, map keys sorted.
    var jsonTree: ConfigurationJSON {
        func member(_ key: String, _ value: ConfigurationJSON) -> ConfigurationJSON.Member {
            .init(key: key, value: value, line: 0)
        }
        func map(_ values: [String: String]) -> ConfigurationJSON {
            .object(values.keys.sorted().map { member($0, .string(values[$0] ?? "")) })
        }
        var members: [ConfigurationJSON.Member] = []
        let strings: [(String, String?)] = [
            ("teamId", teamId), ("urlScheme", urlScheme), ("authCallback", authCallback), ("appGroup", appGroup),
            ("keychainGroup", keychainGroup), ("keychainService", keychainService),
        ]
        for (key, value) in strings { if let value { members.append(member(key, .string(value))) } }
        if let associatedDomains { members.append(member("associatedDomains", .array(associatedDomains.map { .string($0) }))) }
        if let linkPathPrefix { members.append(member("linkPathPrefix", .string(linkPathPrefix))) }
        if let extensions { members.append(member("extensions", map(extensions))) }
        if let errorDomains { members.append(member("errorDomains", map(errorDomains))) }
        if let usageDescriptions { members.append(member("usageDescriptions", map(usageDescriptions))) }
        if let collectedData {
            members.append(
                member(
                    "collectedData",
                    .array(
                        collectedData.map { entry in
                            .object([
                                member("type", .string(entry.type)), member("linked", .bool(entry.linked)),
                                member("tracking", .bool(entry.tracking)),
                                member("purposes", .array(entry.purposes.map { .string($0) })),
                            ])
                        })))
        }
        return .object(members)
    }
}

extension JSONValue {
    /// The value as a configuration tree node (flag defaults are scalars; anything else is null).
    var configurationJSON: ConfigurationJSON {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? .number(String(Int64(number))) : .number(String(number))
        default: .null
        }
    }
}
