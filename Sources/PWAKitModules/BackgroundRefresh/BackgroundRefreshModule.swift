import Foundation
public import PWAKitCore

/// `backgroundRefresh` [features.backgroundRefresh, off by default]: a URL the system fetches now
/// and then while the app is closed, to refresh widgets and the Live Activity (the PWAKit
/// project's SDK drives it).
///
/// Hosts that cannot fetch while the app is closed (Linux desktops: no widgets, no Live Activities,
/// no background tasks) keep nothing and say so: `configured` and `scheduled` are false, with the
/// reason.
public struct BackgroundRefreshModule: ActionModule {
    /// `backgroundRefresh`.
    public static let moduleName = "backgroundRefresh"
    /// `backgroundRefresh`.
    public static let featureFlag: String? = "backgroundRefresh"
    /// One line for the reference.
    public static let summary =
        "A URL fetched in the background to refresh widgets and the Live Activity; hosts that cannot answer false with the reason."
    /// The actions.
    public static let actions = ModuleActions<BackgroundRefreshModule>()
        .action(
            "configureUrl", payload: RefreshURL.self, result: RefreshConfigured.self,
            summary: "Sets the URL to fetch (https) and schedules a refresh.",
            example: RefreshURL(url: "https://example.com/pwakit/widgets.json")
        ) { module, url, _ in
            try await module.provider.configure(url.url)
        }
        .action("removeUrl", result: RefreshRemoved.self, summary: "Forgets the URL.") { module, _ in
            RefreshRemoved(removed: try await module.provider.remove())
        }
        .action("getStatus", result: RefreshStatus.self, summary: "The URL and when it was last fetched.") { module, _ in
            await module.provider.status()
        }
        .action("scheduleRefresh", result: RefreshScheduled.self, summary: "Asks for a refresh soon.") { module, _ in
            try await module.provider.schedule()
        }

    let provider: any BackgroundRefreshProvider

    /// Creates the module over `provider`.
    public init(provider: any BackgroundRefreshProvider = NoBackgroundRefresh()) {
        self.provider = provider
    }
}

/// The payload of `configureUrl`.
public struct RefreshURL: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The URL.
    public var url: String
    /// Creates a payload.
    public init(url: String) { self.url = url }
    /// The rule.
    public static let fieldNotes = ["url": "an https URL, at most 2048 bytes"]
    /// An absolute https URL.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(url, "payload.url", maxBytes: 2048)
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "https", !(parsed.host ?? "").isEmpty else {
            throw .field(.invalidPayload, path: "payload.url", "expected an https URL")
        }
    }
}

/// The result of `configureUrl`.
public struct RefreshConfigured: Codable, Sendable, Hashable {
    /// Whether the URL will be fetched.
    public var configured: Bool
    /// The URL.
    public var url: String
    /// Why not.
    public var reason: String?

    /// Creates a result.
    public init(configured: Bool, url: String, reason: String? = nil) {
        self.configured = configured
        self.url = url
        self.reason = reason
    }
}

/// The result of `removeUrl`.
public struct RefreshRemoved: Codable, Sendable, Hashable {
    /// Whether a URL was set.
    public var removed: Bool
}

/// The result of `getStatus`.
public struct RefreshStatus: Codable, Sendable, Hashable {
    /// Whether a URL is set and fetched.
    public var configured: Bool
    /// The URL.
    public var url: String?
    /// When it was last fetched, seconds since 1970.
    public var lastRefresh: Double?
    /// Why nothing is fetched.
    public var reason: String?

    /// Creates a result.
    public init(configured: Bool, url: String? = nil, lastRefresh: Double? = nil, reason: String? = nil) {
        self.configured = configured
        self.url = url
        self.lastRefresh = lastRefresh
        self.reason = reason
    }
}

/// The result of `scheduleRefresh`.
public struct RefreshScheduled: Codable, Sendable, Hashable {
    /// Whether a refresh was scheduled.
    public var scheduled: Bool
    /// Why not.
    public var reason: String?

    /// Creates a result.
    public init(scheduled: Bool, reason: String? = nil) {
        self.scheduled = scheduled
        self.reason = reason
    }
}

/// Background refresh on a platform.
public protocol BackgroundRefreshProvider: Sendable {
    /// Sets the URL.
    func configure(_ url: String) async throws -> RefreshConfigured
    /// Forgets it; whether one was set.
    func remove() async throws -> Bool
    /// The state.
    func status() async -> RefreshStatus
    /// Schedules a refresh.
    func schedule() async throws -> RefreshScheduled
}

/// A platform that cannot fetch while the app is closed (Linux desktops).
public struct NoBackgroundRefresh: BackgroundRefreshProvider {
    /// Why nothing is fetched.
    public static let reason = "this platform fetches nothing while the app is closed (no widgets, no Live Activities)"

    /// Creates the provider.
    public init() {}

    /// `configured: false` with the reason.
    public func configure(_ url: String) async throws -> RefreshConfigured {
        RefreshConfigured(configured: false, url: url, reason: Self.reason)
    }
    /// False.
    public func remove() async throws -> Bool { false }
    /// Not configured, with the reason.
    public func status() async -> RefreshStatus { RefreshStatus(configured: false, reason: Self.reason) }
    /// `scheduled: false` with the reason.
    public func schedule() async throws -> RefreshScheduled { RefreshScheduled(scheduled: false, reason: Self.reason) }
}
