/// Validates the `origins` section and `app.startUrl`, which depends on it.
struct OriginsValidation {
    /// A pattern that parsed, with where it was written.
    struct Entry {
        var pattern: OriginPattern
        var path: String
    }

    var context: ValidationContext
    private(set) var allowed: [Entry] = []
    private(set) var auth: [Entry] = []
    private(set) var external: [Entry] = []

    init(context: ValidationContext) {
        self.context = context
    }

    mutating func check(_ value: ConfigurationJSON, startURL: String?) {
        let members = context.object(value, at: "origins", known: ConfigurationValidator.originsKeys)
        if let members {
            func field(_ key: String) -> ConfigurationJSON? { members.first { $0.key == key }?.value }
            if let list = field("allowed") {
                allowed = patterns(list, at: "origins.allowed")
                if list.elements?.isEmpty == true {
                    context.error("origins.allowed", .empty, "must list at least one origin pattern")
                }
            } else {
                context.error("origins.allowed", .missingField, "required field \"allowed\" is missing")
            }
            if let list = field("auth") { auth = patterns(list, at: "origins.auth") }
            if let list = field("external") { external = patterns(list, at: "origins.external") }
            checkConflicts()
            if let grants = field("grants") { checkGrants(grants) }
        }
        if let startURL { checkStartURL(startURL) }
    }

    private mutating func patterns(_ value: ConfigurationJSON, at path: String) -> [Entry] {
        guard let elements = value.elements else {
            context.wrongType(value, at: path, expected: "an array of origin patterns")
            return []
        }
        var entries: [Entry] = []
        for (index, element) in elements.enumerated() {
            let elementPath = ValidationContext.path(path, index: index)
            guard let text = element.stringValue else {
                context.wrongType(element, at: elementPath, expected: "a string (an origin pattern)")
                continue
            }
            do {
                let pattern = try OriginPattern(parsing: text)
                if let earlier = entries.first(where: { $0.pattern == pattern }) {
                    context.warning(
                        elementPath, .duplicatePattern,
                        "\(ValidationContext.quoted(text)) repeats \(earlier.path)")
                }
                entries.append(Entry(pattern: pattern, path: elementPath))
            } catch {
                context.error(elementPath, .invalidPattern, Self.describe(error))
            }
        }
        return entries
    }

    private static func describe(_ error: OriginPatternError) -> String {
        "\(ValidationContext.quoted(error.pattern)): \(error.message)"
    }

    private mutating func checkConflicts() {
        for entry in external {
            if let twin = allowed.first(where: { $0.pattern == entry.pattern }) {
                context.error(
                    entry.path, .conflictingPattern,
                    "\(ValidationContext.quoted(entry.pattern.description)) is also in \(twin.path); a pattern cannot be both allowed and external"
                )
            }
        }
    }

    private mutating func checkGrants(_ value: ConfigurationJSON) {
        guard let members = context.object(value, at: "origins.grants", known: nil, describedAs: "an object") else {
            return
        }
        for member in members {
            let keyPath = ValidationContext.path("origins.grants", key: member.key)
            do {
                let pattern = try OriginPattern(parsing: member.key)
                if pattern.hasPath {
                    context.error(
                        keyPath, .invalidGrant,
                        "\(ValidationContext.quoted(member.key)): grants are decided per origin; remove the path")
                } else if !allowed.contains(where: { pattern.isCovered(by: $0.pattern) }) {
                    context.error(
                        keyPath, .grantNotAllowed,
                        "\(ValidationContext.quoted(member.key)) is not covered by any pattern in origins.allowed")
                }
            } catch {
                context.error(keyPath, .invalidPattern, Self.describe(error))
            }
            guard let entries = member.value.elements else {
                context.wrongType(
                    member.value, at: keyPath, expected: "an array of \"module\" or \"module.action\" strings")
                continue
            }
            for (index, entry) in entries.enumerated() {
                let entryPath = ValidationContext.path(keyPath, index: index)
                guard let text = entry.stringValue else {
                    context.wrongType(entry, at: entryPath, expected: "a string (\"module\" or \"module.action\")")
                    continue
                }
                if !BridgeGrant.isWellFormedEntry(text) {
                    context.error(
                        entryPath, .invalidGrant,
                        "\(ValidationContext.quoted(text)) is not of the form \"module\" or \"module.action\"")
                }
            }
        }
    }

    private mutating func checkStartURL(_ text: String) {
        let path = "app.startUrl"
        let shown = ValidationContext.quoted(text)
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            context.error(path, .invalidStartURL, "\(shown) must not contain whitespace or control characters")
            return
        }
        guard let parts = URLParts(text), let host = parts.host else {
            context.error(path, .invalidStartURL, "\(shown) is not an absolute URL with a host")
            return
        }
        switch parts.scheme {
        case "app":
            if let problem = AppIdentifier.problem(host) {
                context.error(path, .invalidStartURL, "\(shown): app id \(ValidationContext.quoted(host)) \(problem)")
            } else if !text.hasPrefix("app://\(host)/") {
                context.error(
                    path, .invalidStartURL,
                    "\(shown) must have the form app://<appId>/<path>, with a lowercase app id and no port or user")
            }
        case "http" where !Self.isLoopback(host):
            context.error(
                path, .invalidStartURL, "\(shown): http is only allowed for localhost, 127.0.0.1 and [::1]; use https")
        case "http", "https":
            checkStartURLIsAllowed(parts, host: host, shown: shown)
        default:
            context.error(
                path, .invalidStartURL, "\(shown) must start with https://, http://localhost or app://<appId>/")
        }
    }

    private mutating func checkStartURLIsAllowed(_ parts: URLParts, host: String, shown: String) {
        let path = "app.startUrl"
        // NB: with no usable allowed pattern the problem is already reported at origins.allowed.
        guard !allowed.isEmpty else { return }
        if let match = external.first(where: { $0.pattern.matches(parts) }) {
            context.error(
                path, .startURLNotAllowed,
                "\(shown) matches \(match.path) (external), so the app would open its own start page in the browser")
            return
        }
        guard allowed.contains(where: { $0.pattern.matches(parts) }) else {
            let what =
                allowed.contains(where: { $0.pattern.matchesHostName(host) })
                ? "\(shown) is outside every path or port that origins.allowed permits for host \(ValidationContext.quoted(host))"
                : "host \(ValidationContext.quoted(host)) of \(shown) is not matched by any pattern in origins.allowed"
            context.error(path, .startURLNotAllowed, what)
            return
        }
        if let match = auth.first(where: { $0.pattern.matches(parts) }) {
            context.warning(
                path, .startURLNotAllowed,
                "\(shown) matches \(match.path) (auth), so the start page loads without bridge access")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "127.0.0.1" || host == "[::1]"
    }
}
