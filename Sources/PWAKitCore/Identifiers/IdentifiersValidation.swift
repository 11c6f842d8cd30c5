import Foundation

extension ConfigurationValidator {
    /// The services an associated domain may name.
    static let associatedDomainServices = ["applinks", "webcredentials", "activitycontinuation", "appclips"]
    /// The most associated domains, extensions, error domains and collected-data entries a section holds.
    static let maximumIdentifierEntries = 64

    /// Checks `identifiers` (when present) and the URL scheme the bundle id makes when it is absent.
    func checkIdentifiers(_ value: ConfigurationJSON?, bundleId: String?, _ context: inout ValidationContext) {
        let validBundleId = bundleId.flatMap { Self.bundleIdProblem($0) == nil ? $0 : nil }
        guard let value else {
            if let validBundleId { checkDerivedScheme(validBundleId, &context) }
            return
        }
        guard let members = context.object(value, at: "identifiers", known: IdentifiersSection.keys) else { return }
        func field(_ key: String) -> ConfigurationJSON? { members.first { $0.key == key }?.value }
        func string(_ key: String) -> String? {
            guard let value = field(key) else { return nil }
            guard let text = value.stringValue else {
                context.wrongType(value, at: "identifiers.\(key)", expected: "a string")
                return nil
            }
            return text
        }

        let teamId = string("teamId")
        if let teamId, !Self.isTeamId(teamId) {
            context.error(
                "identifiers.teamId", .invalidValue,
                "\(ValidationContext.quoted(teamId)) is not an Apple team id: 10 characters of A-Z and 0-9")
        }
        var scheme: String?
        if let urlScheme = string("urlScheme") {
            if let problem = AppIdentifiers.schemeProblem(urlScheme) {
                context.error("identifiers.urlScheme", .invalidValue, "\(ValidationContext.quoted(urlScheme)) \(problem)")
            } else {
                scheme = urlScheme
            }
        } else if let validBundleId {
            scheme = checkDerivedScheme(validBundleId, &context)
        }
        if let appGroup = string("appGroup") {
            let rest = appGroup.hasPrefix("group.") ? String(appGroup.dropFirst(6)) : nil
            if let problem = rest.map(Self.bundleIdProblem) ?? "does not start with \"group.\"" {
                context.error(
                    "identifiers.appGroup", .invalidValue,
                    "\(ValidationContext.quoted(appGroup)) \(problem) (an app group is \"group.\" and a reverse-DNS name)")
            }
        }
        if let group = string("keychainGroup"), let problem = Self.bundleIdProblem(group) {
            context.error(
                "identifiers.keychainGroup", .invalidValue,
                "\(ValidationContext.quoted(group)) \(problem) (a reverse-DNS name without the team prefix)")
        }
        if let service = string("keychainService"), !Self.isServiceName(service) {
            context.error(
                "identifiers.keychainService", .invalidValue,
                "\(ValidationContext.quoted(service)) is not 1 to 255 characters of A-Z, a-z, 0-9, '.', '-' and '_' not starting with '.'"
            )
        }
        let hosts = checkAssociatedDomains(field("associatedDomains"), &context)
        if let domains = field("associatedDomains")?.elements, !domains.isEmpty, teamId == nil {
            context.error(
                "identifiers.teamId", .missingField,
                "required when associatedDomains is set: the apple-app-site-association file names the app as <teamId>.<bundleId>"
            )
        }
        if let callback = string("authCallback") {
            checkAuthCallback(callback, scheme: scheme, hosts: hosts, &context)
        }
        if let prefix = string("linkPathPrefix"), let problem = Self.pathPrefixProblem(prefix) {
            context.error("identifiers.linkPathPrefix", .invalidValue, "\(ValidationContext.quoted(prefix)) \(problem)")
        }
        if let extensions = field("extensions") {
            checkNameMap(extensions, at: "identifiers.extensions", &context) { name, bundle in
                if let problem = Self.bundleIdProblem(bundle) { return problem }
                if let validBundleId, !bundle.hasPrefix(validBundleId + ".") {
                    return "does not start with the app's bundle id and a dot (\"\(validBundleId).\(name)\")"
                }
                return nil
            }
        }
        if let domains = field("errorDomains") {
            checkNameMap(domains, at: "identifiers.errorDomains", &context) { _, domain in Self.bundleIdProblem(domain) }
        }
        if let descriptions = field("usageDescriptions") { checkUsageDescriptions(descriptions, &context) }
        if let collected = field("collectedData") { checkCollectedData(collected, &context) }
    }

    /// The scheme `app.bundleId` makes when `identifiers.urlScheme` is absent; reported when it is not one.
    @discardableResult
    private func checkDerivedScheme(_ bundleId: String, _ context: inout ValidationContext) -> String? {
        let derived = bundleId.lowercased()
        guard let problem = AppIdentifiers.schemeProblem(derived) else { return derived }
        context.error(
            "identifiers.urlScheme", .missingField,
            "the bundle id makes the URL scheme \(ValidationContext.quoted(derived)), which \(problem): set identifiers.urlScheme"
        )
        return nil
    }

    /// Checks `associatedDomains`; returns the `applinks:` hosts.
    private func checkAssociatedDomains(_ value: ConfigurationJSON?, _ context: inout ValidationContext) -> [String] {
        guard let value else { return [] }
        guard let list = value.elements else {
            context.wrongType(value, at: "identifiers.associatedDomains", expected: "an array of \"service:domain\" strings")
            return []
        }
        if list.count > Self.maximumIdentifierEntries {
            context.error(
                "identifiers.associatedDomains", .invalidValue,
                "at most \(Self.maximumIdentifierEntries) entries, found \(list.count)")
        }
        var seen: Set<String> = []
        var hosts: [String] = []
        for (index, item) in list.enumerated() {
            let path = "identifiers.associatedDomains[\(index)]"
            guard let entry = item.stringValue else {
                context.wrongType(item, at: path, expected: "a string like \"applinks:example.com\"")
                continue
            }
            if let problem = Self.associatedDomainProblem(entry) {
                context.error(path, .invalidValue, "\(ValidationContext.quoted(entry)) \(problem)")
                continue
            }
            if !seen.insert(entry).inserted {
                context.warning(path, .duplicatePattern, "\(ValidationContext.quoted(entry)) is listed twice")
            }
            if let host = AppIdentifiers.domain(of: entry, service: "applinks"), !host.hasPrefix("*.") { hosts.append(host) }
        }
        return hosts
    }

    private func checkAuthCallback(
        _ callback: String, scheme: String?, hosts: [String], _ context: inout ValidationContext
    ) {
        let path = "identifiers.authCallback"
        guard Self.isPlainText(callback, maximumBytes: 2048), !callback.contains(" "),
            let separator = callback.range(of: "://"), callback.endIndex > separator.upperBound
        else {
            context.error(
                path, .invalidValue,
                "\(ValidationContext.quoted(callback)) is not an absolute URL like \"myapp://auth/callback\" (at most 2048 bytes, no spaces)"
            )
            return
        }
        let callbackScheme = callback[..<separator.lowerBound].lowercased()
        if callbackScheme == "https" {
            let authority = callback[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
            if !hosts.contains(authority) {
                context.error(
                    path, .invalidValue,
                    "an https callback must be a universal link: its host \(ValidationContext.quoted(authority)) is not an applinks: entry of associatedDomains"
                )
            }
        } else if let scheme, callbackScheme != scheme {
            context.error(
                path, .invalidValue,
                "\(ValidationContext.quoted(callback)) uses neither the app's scheme \"\(scheme)\" nor https")
        }
    }

    /// Checks an object of `name → value` whose names are identifiers (`share`, `widget`).
    private func checkNameMap(
        _ value: ConfigurationJSON, at path: String, _ context: inout ValidationContext,
        problem: (String, String) -> String?
    ) {
        guard let members = context.object(value, at: path, known: nil) else { return }
        if members.count > Self.maximumIdentifierEntries {
            context.error(path, .invalidValue, "at most \(Self.maximumIdentifierEntries) entries, found \(members.count)")
        }
        var seen: [String: String] = [:]
        for member in members {
            let memberPath = ValidationContext.path(path, key: member.key)
            guard Self.isEntryName(member.key) else {
                context.error(memberPath, .invalidValue, "a name is 1 to 32 characters of a-z, A-Z and 0-9, starting with a-z")
                continue
            }
            guard let text = member.value.stringValue else {
                context.wrongType(member.value, at: memberPath, expected: "a string")
                continue
            }
            if let problem = problem(member.key, text) {
                context.error(memberPath, .invalidValue, "\(ValidationContext.quoted(text)) \(problem)")
            } else if let other = seen[text] {
                context.error(memberPath, .invalidValue, "\(ValidationContext.quoted(text)) is already the value of \(other)")
            }
            seen[text] = seen[text] ?? member.key
        }
    }

    private func checkUsageDescriptions(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        let path = "identifiers.usageDescriptions"
        guard let members = context.object(value, at: path, known: nil) else { return }
        for member in members {
            let memberPath = ValidationContext.path(path, key: member.key)
            guard PrivacyVocabulary.usageDescriptionKeys.contains(member.key) else {
                context.error(
                    memberPath, .invalidValue,
                    "not a usage-description key this version writes: one of \(PrivacyVocabulary.usageDescriptionKeys.joined(separator: ", "))"
                )
                continue
            }
            guard let text = member.value.stringValue else {
                context.wrongType(member.value, at: memberPath, expected: "a string")
                continue
            }
            if !Self.isPlainText(text, maximumBytes: 1000) || text.trimmingASCIISpaces().isEmpty {
                context.error(memberPath, .invalidValue, "must be 1 to 1000 bytes of text without control characters")
            }
        }
    }

    private func checkCollectedData(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        let path = "identifiers.collectedData"
        guard let list = value.elements else {
            context.wrongType(value, at: path, expected: "an array of {type, linked, tracking, purposes} objects")
            return
        }
        if list.count > Self.maximumIdentifierEntries {
            context.error(path, .invalidValue, "at most \(Self.maximumIdentifierEntries) entries, found \(list.count)")
        }
        var types: Set<String> = []
        for (index, item) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let entry = context.object(item, at: itemPath, known: IdentifiersSection.collectedDataKeys) else { continue }
            if let type = context.requiredString(entry, "type", in: itemPath) {
                if !PrivacyVocabulary.dataTypes.contains(type) {
                    context.error(
                        "\(itemPath).type", .invalidValue,
                        "\(ValidationContext.quoted(type)) is not a collected data type: one of \(PrivacyVocabulary.dataTypes.joined(separator: ", "))"
                    )
                } else if !types.insert(type).inserted {
                    context.error("\(itemPath).type", .invalidValue, "\(type) is declared twice")
                }
            }
            for key in ["linked", "tracking"] {
                if entry.first(where: { $0.key == key }) == nil {
                    context.error("\(itemPath).\(key)", .missingField, "required field \"\(key)\" is missing")
                } else {
                    context.optionalBool(entry, key, in: itemPath)
                }
            }
            guard let purposes = entry.first(where: { $0.key == "purposes" })?.value else {
                context.error("\(itemPath).purposes", .missingField, "required field \"purposes\" is missing")
                continue
            }
            guard let names = purposes.elements, !names.isEmpty else {
                context.wrongType(purposes, at: "\(itemPath).purposes", expected: "a non-empty array of purposes")
                continue
            }
            var seen: Set<String> = []
            for (position, name) in names.enumerated() {
                let namePath = "\(itemPath).purposes[\(position)]"
                guard let text = name.stringValue, PrivacyVocabulary.purposes.contains(text) else {
                    context.error(namePath, .invalidValue, "is not one of \(PrivacyVocabulary.purposes.joined(separator: ", "))")
                    continue
                }
                if !seen.insert(text).inserted { context.error(namePath, .invalidValue, "\(text) is listed twice") }
            }
        }
    }

    // MARK: - Rules

    /// Whether `text` is an Apple team id: 10 characters of `A-Z` and `0-9`.
    static func isTeamId(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// Whether `name` can be a keychain service (and, on Linux, a folder name): 1 to 255 characters
    /// of `A-Z a-z 0-9 . - _`, not starting with `.`.
    static func isServiceName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 255, first != 0x2E else { return false }
        return bytes.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D
                || $0 == 0x5F
        }
    }

    /// Whether `text` is 1 to `maximumBytes` bytes of UTF-8 without control characters.
    static func isPlainText(_ text: String, maximumBytes: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumBytes
            && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }

    /// Whether `name` is 1 to 32 characters of `a-z`, `A-Z`, `0-9`, starting with `a-z`.
    static func isEntryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 32, first >= 0x61, first <= 0x7A else { return false }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// Why `entry` is not `service:domain[?mode=…]`, or nil when it is one.
    static func associatedDomainProblem(_ entry: String) -> String? {
        guard let colon = entry.firstIndex(of: ":") else {
            return "is not \"service:domain\" (like \"applinks:example.com\")"
        }
        let service = String(entry[..<colon])
        guard associatedDomainServices.contains(service) else {
            return
                "names the service \(ValidationContext.quoted(service)): one of \(associatedDomainServices.joined(separator: ", "))"
        }
        var domain = String(entry[entry.index(after: colon)...])
        if let question = domain.firstIndex(of: "?") {
            let mode = domain[domain.index(after: question)...]
            guard ["mode=developer", "mode=managed", "mode=developer+managed"].contains(mode) else {
                return "has a suffix other than ?mode=developer, ?mode=managed or ?mode=developer+managed"
            }
            domain = String(domain[..<question])
        }
        if domain.hasPrefix("*.") { domain.removeFirst(2) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            domain.utf8.count <= 253 && labels.count >= 2
            && labels.allSatisfy { label in
                let bytes = label.utf8
                guard let first = bytes.first, let last = bytes.last, bytes.count <= 63, first != 0x2D, last != 0x2D else {
                    return false
                }
                return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            }
        return valid ? nil : "does not name a lowercase DNS domain (a-z, 0-9 and '-' labels; an optional leading \"*.\")"
    }

    /// Why `prefix` is not a universal-link path prefix (`/open`), or nil when it is one.
    static func pathPrefixProblem(_ prefix: String) -> String? {
        if prefix.isEmpty || prefix == "/" { return nil }
        guard prefix.hasPrefix("/"), !prefix.hasSuffix("/"), prefix.utf8.count <= 200 else {
            return "is not a path like \"/open\": starting with '/', not ending with one, at most 200 bytes"
        }
        let segments = prefix.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let unreserved = { (byte: UInt8) in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
        for segment in segments where segment.isEmpty || segment == "." || segment == ".." || !segment.utf8.allSatisfy(unreserved)
        {
            return "has a segment that is empty, '.' or '..', or holds a character other than A-Z, a-z, 0-9, '-', '.', '_', '~'"
        }
        return nil
    }
}
