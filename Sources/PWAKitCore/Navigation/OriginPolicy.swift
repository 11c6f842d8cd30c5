/// Decides where each navigation goes and which origins may reach the bridge, from the
/// `origins` section of a configuration. A pure value: no state, no I/O.
///
/// Navigation precedence is the seed's: `external`, then `auth`, then `allowed`; any other
/// http(s) URL opens externally. Bridge access is decided per origin, never by path.
public struct OriginPolicy: Sendable {
    private let allowed: [OriginPattern]
    private let auth: [OriginPattern]
    private let external: [OriginPattern]
    /// Each grants key: its pattern when it parses as one, and the key itself (lowercased), which
    /// names this app's own origin by its id when it equals its host.
    private let grants: [(pattern: OriginPattern?, key: String, entries: Set<String>)]?
    private let appOrigin: Origin?

    /// Schemes handed to the operating system.
    public static let systemSchemes: Set<String> = ["tel", "mailto", "sms", "facetime", "maps"]

    /// Creates the policy for a configuration. Patterns that do not parse are ignored; a
    /// configuration from ``ConfigurationLoader`` has none, because it was validated. A grants key
    /// that does not parse as a pattern still names this app's own origin when it is the app's
    /// id (a mini-app id such as `quiz_game` may hold characters no host pattern allows): dropped,
    /// it would leave the app's origin with every module.
    public init(configuration: PWAConfiguration) {
        func parse(_ texts: [String]) -> [OriginPattern] {
            texts.compactMap { try? OriginPattern(parsing: $0) }
        }
        allowed = parse(configuration.origins.allowed)
        auth = parse(configuration.origins.auth)
        external = parse(configuration.origins.external)
        grants = configuration.origins.grants.map { table in
            table.sorted { $0.key < $1.key }.map { key, entries in
                (try? OriginPattern(parsing: key), key.lowercased(), Set(entries))
            }
        }
        if let origin = Origin(url: configuration.app.startUrl), origin.scheme == "app" {
            appOrigin = origin
        } else {
            appOrigin = nil
        }
    }

    /// Classifies a top-level navigation to `url`.
    ///
    /// - `tel:`, `mailto:`, `sms:`, `facetime:`, `maps:` → ``NavigationDecision/system``.
    /// - `app://<appId>/…` of this app → ``NavigationDecision/allowed``; of any other app → blocked.
    /// - http(s): external patterns → external; auth → auth; allowed → allowed; else external.
    /// - anything else (`javascript:`, `file:`, `data:`, `blob:`, unparseable) → blocked.
    public func classify(_ url: String) -> NavigationDecision {
        guard let parts = URLParts(url) else { return .blocked }
        if Self.systemSchemes.contains(parts.scheme) { return .system }
        switch parts.scheme {
        case "app":
            guard let appOrigin, let host = parts.host else { return .blocked }
            return host == appOrigin.host && parts.port == nil ? .allowed : .blocked
        case "http", "https":
            guard let host = parts.host else { return .blocked }
            if external.contains(where: { $0.matches(parts) }) { return .external }
            // NB: cleartext pages never load inside the app, except on the local machine during development.
            let isCleartext = parts.scheme == "http" && !OriginsValidation.isLoopback(host)
            if auth.contains(where: { $0.matches(parts) }) { return isCleartext ? .external : .auth }
            if allowed.contains(where: { $0.matches(parts) }) { return isCleartext ? .external : .allowed }
            return .external
        default:
            return .blocked
        }
    }

    /// Which modules pages of `origin` may call.
    ///
    /// This app's own `app://` origin gets every module, unless `grants` has keys matching its
    /// id (`"quiz": [...]` for `app://quiz`): then the union of their entries (how a mini-app
    /// gets only the permissions its catalog entry asks for). Otherwise the origin must be https
    /// (or http on the local machine), not matched by a path-less `external` or `auth`
    /// pattern, and matched by an `allowed` pattern (its path, if any, does not matter:
    /// pages of one origin can script each other). Without `grants` it then gets every
    /// module; with `grants`, the union of the entries of every key that matches it, except a key
    /// that is this app's id, whose entries are the app's own (an empty ``BridgeGrant/only(_:)``
    /// when none does, so its calls are `permission_denied`).
    public func bridgeGrant(for origin: Origin) -> BridgeGrant {
        if let appOrigin, origin == appOrigin {
            let matching = (grants ?? []).filter { $0.key == origin.host || $0.pattern?.matches(origin) == true }
            return matching.isEmpty ? .all : .only(matching.reduce(into: Set<String>()) { $0.formUnion($1.entries) })
        }
        guard origin.scheme == "https" || (origin.scheme == "http" && origin.isLoopback) else { return .denied }
        if external.contains(where: { !$0.hasPath && $0.matches(origin) }) { return .denied }
        if auth.contains(where: { !$0.hasPath && $0.matches(origin) }) { return .denied }
        guard allowed.contains(where: { $0.matches(origin) }) else { return .denied }
        guard let grants else { return .all }
        // NB: a key that is this app's id names the app's own origin, never a web page that happens
        // to have that host (a mini-app `shop.example.com` opened with that site allowed).
        let appHost = appOrigin?.host
        let entries = grants.filter { $0.key != appHost && $0.pattern?.matches(origin) == true }.reduce(
            into: Set<String>()
        ) {
            $0.formUnion($1.entries)
        }
        // NB: an allowed origin that no grants key names still reaches the bridge, with no
        // module: its calls answer `permission_denied`, not `origin_not_allowed`.
        return .only(entries)
    }

    /// ``bridgeGrant(for:)`` for the origin of `url`; ``BridgeGrant/denied`` when it has none.
    public func bridgeGrant(forURL url: String) -> BridgeGrant {
        Origin(url: url).map(bridgeGrant(for:)) ?? .denied
    }
}
