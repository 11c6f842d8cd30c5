import Foundation

/// Makes a `pwa-config.json` from a web app manifest plus what a manifest cannot say
/// (bundle id, origin patterns, status bar style).
///
/// The result is validated before it is returned: an import never produces a file the
/// loader would refuse.
public struct ManifestImport: Sendable {
    /// Values that override or complete the manifest.
    public struct Options: Sendable, Equatable {
        /// The app name; default: the manifest's `name`, else `short_name`.
        public var name: String?
        /// The bundle id; default: derived from the start URL's host, reversed
        /// (`https://app.example.com/` → `com.example.app`). Required for `app://`,
        /// localhost and IP-address start URLs.
        public var bundleId: String?
        /// The absolute start URL; default: the manifest's `start_url`, resolved against ``origin``.
        public var startURL: String?
        /// The base (`https://example.com`, `app://hello`) that a relative `start_url` and
        /// `scope` are resolved against.
        public var origin: String?
        /// `origins.allowed`; default: the start URL's host (and port), narrowed to the
        /// manifest's `scope` path when it has one.
        public var allowed: [String]
        /// `origins.auth`.
        public var auth: [String]
        /// `origins.external`.
        public var external: [String]
        /// Overrides the manifest's `display`.
        public var displayMode: DisplayMode?
        /// Overrides the manifest's `orientation`.
        public var orientationLock: OrientationLock?
        /// The status bar style (a manifest has none); default `adaptive`.
        public var statusBarStyle: StatusBarStyle?
        /// Whether pulling down reloads; default `false`.
        public var pullToRefresh: Bool?
        /// Overrides the manifest's `theme_color`; `#RGB` or `#RRGGBB`.
        public var themeColor: String?
        /// Overrides the manifest's `background_color`; `#RGB` or `#RRGGBB`.
        public var backgroundColor: String?

        /// Creates options; everything defaults to "take it from the manifest".
        public init(
            name: String? = nil, bundleId: String? = nil, startURL: String? = nil, origin: String? = nil,
            allowed: [String] = [], auth: [String] = [], external: [String] = [], displayMode: DisplayMode? = nil,
            orientationLock: OrientationLock? = nil, statusBarStyle: StatusBarStyle? = nil, pullToRefresh: Bool? = nil,
            themeColor: String? = nil, backgroundColor: String? = nil
        ) {
            self.name = name
            self.bundleId = bundleId
            self.startURL = startURL
            self.origin = origin
            self.allowed = allowed
            self.auth = auth
            self.external = external
            self.displayMode = displayMode
            self.orientationLock = orientationLock
            self.statusBarStyle = statusBarStyle
            self.pullToRefresh = pullToRefresh
            self.themeColor = themeColor
            self.backgroundColor = backgroundColor
        }
    }

    /// A configuration made by an import.
    public struct Result: Sendable {
        /// The configuration; it passed the validator.
        public var configuration: PWAConfiguration
        /// The validator's report (warnings only).
        public var report: ValidationReport
        /// What the import decided on its own (a derived bundle id, an ignored scope), for people.
        public var notes: [String]
    }

    /// Builds and validates a configuration from `manifest` (may be nil) and `options`.
    public static func makeConfiguration(
        manifest: WebAppManifest?, options: Options
    ) throws(ConfigurationError) -> Result {
        let hasManifest = manifest != nil
        let manifest = manifest ?? WebAppManifest()
        var notes: [String] = []
        // NB: independent problems are all collected, so one run reports every one of them.
        var problems: [ConfigurationError] = []
        func attempt<T>(_ body: () throws(ConfigurationError) -> T) -> T? {
            do { return try body() } catch {
                problems.append(error)
                return nil
            }
        }

        let name = [options.name, manifest.name, manifest.shortName]
            .compactMap { $0?.trimmingASCIISpaces() }.first { !$0.isEmpty }
        if name == nil {
            problems.append(
                ConfigurationError(
                    code: .missingValue,
                    message: hasManifest
                        ? "no app name: the manifest has neither name nor short_name; pass --name"
                        : "no app name: there is no manifest to take it from; pass --name"))
        }

        var allowed = options.allowed
        var bundleId = options.bundleId
        let startURL = attempt { () throws(ConfigurationError) -> String in
            try resolveStartURL(manifest: manifest, options: options)
        }
        if let startURL {
            if let start = URLParts(startURL), let startHost = start.host {
                if allowed.isEmpty {
                    if start.scheme == "app" {
                        problems.append(
                            ConfigurationError(
                                code: .missingValue,
                                message:
                                    "an app:// start URL needs at least one --allow pattern (origins.allowed must not be empty): the web hosts the app navigates to or loads, like --allow api.example.com or --allow '*.example.com' (a host pattern, not a URL); the app's own app:// pages are always allowed (docs/configuration.md, app:// start URLs)"
                            ))
                    } else {
                        let hostPattern = startHost + (start.port.map { ":\($0)" } ?? "")
                        let scopePath = scopePath(manifest: manifest, startURL: startURL, start: start, notes: &notes)
                        allowed = [scopePath.map { hostPattern + $0 + "*" } ?? hostPattern]
                    }
                }
                if bundleId == nil,
                    let derived = attempt({ () throws(ConfigurationError) -> String in
                        try deriveBundleId(from: start, host: startHost)
                    })
                {
                    bundleId = derived
                    notes.append(
                        "bundleId \"\(derived)\" derived from the start URL's host; pass --bundle-id to choose another")
                }
            } else {
                problems.append(
                    ConfigurationError(code: .invalidOption, message: "start URL \"\(startURL)\" is not an absolute URL"))
            }
        }

        let backgroundColor = attempt { () throws(ConfigurationError) -> HexColor? in
            try color(
                option: options.backgroundColor, manifest: manifest.backgroundColor, member: "background_color",
                flag: "--background-color")
        }
        let themeColor = attempt { () throws(ConfigurationError) -> HexColor? in
            try color(option: options.themeColor, manifest: manifest.themeColor, member: "theme_color", flag: "--theme-color")
        }
        let appearance = AppearanceSection(
            displayMode: options.displayMode ?? displayMode(manifest.display, notes: &notes),
            pullToRefresh: options.pullToRefresh ?? false,
            statusBarStyle: options.statusBarStyle ?? .adaptive,
            orientationLock: options.orientationLock ?? orientationLock(manifest.orientation, notes: &notes),
            backgroundColor: backgroundColor ?? nil,
            themeColor: themeColor ?? nil
        )
        guard problems.isEmpty, let name, let startURL, let bundleId else {
            if problems.count == 1 { throw problems[0] }
            throw ConfigurationError(
                code: problems.first?.code ?? .invalid,
                message: "\(problems.count) problems:\n" + problems.map { "  - " + $0.message }.joined(separator: "\n"))
        }

        let configuration = PWAConfiguration(
            app: AppSection(name: name, bundleId: bundleId, startUrl: startURL),
            origins: OriginsSection(allowed: allowed, auth: options.auth, external: options.external),
            appearance: appearance, shareTarget: shareTarget(manifest.shareTarget, startURL: startURL, notes: &notes))
        let report = ConfigurationValidator().validate(configuration)
        guard report.isValid else {
            throw ConfigurationError(
                code: .invalid, message: "the configuration made from the manifest and options is invalid",
                report: report)
        }
        return Result(configuration: configuration, report: report, notes: notes)
    }

    // MARK: - Pieces

    /// The manifest's `share_target` as the host takes it (GET, on the start URL's origin), or nil with a note.
    static func shareTarget(_ target: WebAppManifest.ShareTarget?, startURL: String, notes: inout [String])
        -> ShareTargetSection?
    {
        guard let target else { return nil }
        func skip(_ why: String) -> ShareTargetSection? {
            notes.append("share_target not imported: \(why)")
            return nil
        }
        if let method = target.method, method.uppercased() != "GET" {
            return skip("its method is \(method); the host takes shares by GET only")
        }
        if target.hasFiles { return skip("it takes files, which need a POST share target") }
        guard let action = target.action?.trimmingASCIISpaces(), !action.isEmpty,
            let resolved = resolve(action, against: startURL), let parts = URLParts(resolved), let start = URLParts(startURL),
            parts.scheme == start.scheme, parts.host == start.host, parts.port == start.port
        else { return skip("its action is missing or not on the start URL's origin") }
        let query =
            resolved.firstIndex(of: "?").map { String(resolved[$0...]).split(separator: "#").first.map(String.init) ?? "" } ?? ""
        let section = ShareTargetSection(
            action: parts.path + query, params: ShareTargetParams(title: target.title, text: target.text, url: target.url))
        if let problem = ShareTargetSection.actionProblem(section.action) { return skip("its action \(problem)") }
        let names = [target.title, target.text, target.url].compactMap { $0 }
        guard !names.isEmpty, names.allSatisfy(ShareTargetSection.isParameterName) else {
            return skip("its params name no title, text or url parameter, or a name is not a plain parameter name")
        }
        return section
    }

    private static func resolveStartURL(manifest: WebAppManifest, options: Options) throws(ConfigurationError) -> String {
        if let given = options.startURL {
            guard URLParts(given)?.host != nil else {
                throw ConfigurationError(
                    code: .invalidOption,
                    message: "--start-url \"\(given)\" must be an absolute URL such as https://example.com/")
            }
            return given
        }
        let written = manifest.startURL?.trimmingASCIISpaces() ?? ""
        if URLParts(written)?.host != nil { return written }
        guard let origin = options.origin else {
            let reason =
                written.isEmpty
                ? "the manifest has no start_url" : "the manifest's start_url \"\(written)\" is relative"
            throw ConfigurationError(
                code: .missingValue, message: "\(reason); pass --origin (e.g. https://example.com) or --start-url")
        }
        guard URLParts(origin)?.host != nil else {
            throw ConfigurationError(
                code: .invalidOption,
                message: "--origin \"\(origin)\" must be absolute, like https://example.com or app://hello")
        }
        return resolve(written.isEmpty ? "/" : written, against: origin) ?? origin
    }

    /// Resolves a reference against a base, as RFC 3986 section 5 does.
    static func resolve(_ reference: String, against base: String) -> String? {
        let baseWithPath = URLParts(base)?.path == "/" && !base.hasSuffix("/") ? base + "/" : base
        guard let baseURL = URL(string: baseWithPath), let resolved = URL(string: reference, relativeTo: baseURL) else {
            return nil
        }
        return resolved.absoluteString
    }

    /// The path of the manifest's scope when it narrows the start URL's origin, else nil.
    private static func scopePath(manifest: WebAppManifest, startURL: String, start: URLParts, notes: inout [String])
        -> String?
    {
        guard let scope = manifest.scope?.trimmingASCIISpaces(), !scope.isEmpty else { return nil }
        guard let resolved = resolve(scope, against: startURL), let parts = URLParts(resolved) else {
            notes.append("scope \"\(scope)\" ignored: it does not resolve to a URL")
            return nil
        }
        guard parts.scheme == start.scheme, parts.host == start.host, parts.port == start.port else {
            notes.append("scope \"\(scope)\" ignored: it is not on the start URL's origin")
            return nil
        }
        guard start.path.hasPrefix(parts.path) else {
            notes.append("scope \"\(scope)\" ignored: the start URL is outside it")
            return nil
        }
        return parts.path == "/" ? nil : parts.path
    }

    private static func deriveBundleId(from start: URLParts, host: String) throws(ConfigurationError) -> String {
        let labels = host.split(separator: ".")
        let isAddress = host.hasPrefix("[") || labels.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCIIDigit) }
        guard start.scheme == "https", labels.count >= 2, !isAddress else {
            throw ConfigurationError(
                code: .missingValue,
                message:
                    "cannot derive a bundle id from the start URL's host \"\(host)\"; pass --bundle-id (e.g. com.example.app)"
            )
        }
        return labels.reversed().joined(separator: ".")
    }

    private static func displayMode(_ display: String?, notes: inout [String]) -> DisplayMode {
        switch display {
        case nil, "standalone": return .standalone
        case "minimal-ui":
            notes.append("display \"minimal-ui\" has no in-app browser controls; using standalone")
            return .standalone
        case "fullscreen": return .fullscreen
        case let other?:
            notes.append("display \"\(other)\" has no in-app equivalent; using standalone")
            return .standalone
        }
    }

    private static func orientationLock(_ orientation: String?, notes: inout [String]) -> OrientationLock {
        switch orientation {
        case nil, "any", "natural": return .any
        case "portrait": return .portrait
        case "landscape": return .landscape
        case let value?
        where ["portrait-primary", "portrait-secondary", "landscape-primary", "landscape-secondary"].contains(value):
            let lock: OrientationLock = value.hasPrefix("portrait") ? .portrait : .landscape
            notes.append("orientation \"\(value)\" becomes \(lock.rawValue) (either way up: a lock has no primary or secondary)")
            return lock
        case let other?:
            notes.append("orientation \"\(other)\" is not recognised; using any")
            return .any
        }
    }

    private static func color(option: String?, manifest: String?, member: String, flag: String)
        throws(ConfigurationError)
        -> HexColor?
    {
        if let option {
            guard let color = HexColor(lenient: option) else {
                throw ConfigurationError(
                    code: .invalidOption, message: "\(flag) \"\(option)\" is not a hex colour (#RGB or #RRGGBB)")
            }
            return color
        }
        guard let manifest else { return nil }
        guard let color = HexColor(lenient: manifest) else {
            throw ConfigurationError(
                code: .manifestInvalid,
                message:
                    "manifest \(member) \"\(manifest)\" is not a hex colour (#RGB or #RRGGBB); pass \(flag) #RRGGBB")
        }
        return color
    }
}
