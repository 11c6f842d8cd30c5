public import PWAKitCore

/// `liveActivity` [features.liveActivity, off by default]: an ongoing activity on the lock screen
/// (iOS Live Activities), as the PWAKit project's SDK drives it.
///
/// Hosts without Live Activities (Linux desktops) answer as iOS does when the user turned them
/// off: `areActivitiesEnabled` is false, `start` answers `started: false` with the reason, and
/// there is never an activity to update, end or read.
public struct LiveActivityModule: ActionModule {
    /// `liveActivity`.
    public static let moduleName = "liveActivity"
    /// `liveActivity`.
    public static let featureFlag: String? = "liveActivity"
    /// One line for the reference.
    public static let summary =
        "Live Activities: start, update and end the app's ongoing activity; hosts without them answer as iOS does when they are turned off."
    /// The actions.
    public static let actions = ModuleActions<LiveActivityModule>()
        .action("areActivitiesEnabled", result: ActivitiesEnabled.self, summary: "Whether activities can be started.") {
            module, _ in
            ActivitiesEnabled(enabled: await module.provider.enabled())
        }
        .action(
            "start", payload: ActivityContent.self, result: ActivityStarted.self,
            summary: "Starts an activity; `started` is false, with `reason`, when activities are off.",
            example: ActivityContent(title: "Order #42", subtitle: "Being prepared", progress: 0.2)
        ) { module, content, _ in
            try await module.provider.start(content)
        }
        .action(
            "update", payload: ActivityContent.self, result: ActivityUpdated.self,
            summary: "Updates every running activity; `updated` is false when none runs.",
            example: ActivityContent(title: "Order #42", subtitle: "Out for delivery", progress: 0.8)
        ) { module, content, _ in
            ActivityUpdated(updated: try await module.provider.update(content))
        }
        .action(
            "end", payload: ActivityEnd.self, result: ActivityEnded.self, summary: "Ends every running activity.",
            example: ActivityEnd(dismissalPolicy: .immediate)
        ) { module, end, _ in
            try await module.provider.end(dismissalPolicy: end.dismissalPolicy ?? .default)
            return ActivityEnded(ended: true)
        }
        .action("getState", result: ActivityState.self, summary: "Whether an activity runs, and the first one's content.") {
            module, _ in
            await module.provider.state()
        }
        .action(
            "getPushToken", result: ActivityPushToken.self,
            summary: "The push token of the running activity; `token` is null, with `reason`, when there is none."
        ) { module, _ in
            await module.provider.pushToken()
        }

    let provider: any LiveActivityProvider

    /// Creates the module over `provider`.
    public init(provider: any LiveActivityProvider = NoLiveActivities()) {
        self.provider = provider
    }
}

/// What an activity shows: the payload of `start` and `update`.
public struct ActivityContent: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The title.
    public var title: String
    /// The subtitle.
    public var subtitle: String?
    /// Progress, 0…1.
    public var progress: Double?
    /// A symbol name.
    public var icon: String?
    /// A colour, `#RRGGBB`.
    public var tint: String?
    /// Extra labelled values.
    public var fields: [String: String]?
    /// The activity's id (`start` only).
    public var activityId: String?

    /// Creates content.
    public init(
        title: String, subtitle: String? = nil, progress: Double? = nil, icon: String? = nil, tint: String? = nil,
        fields: [String: String]? = nil, activityId: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.progress = progress
        self.icon = icon
        self.tint = tint
        self.fields = fields
        self.activityId = activityId
    }

    /// The rules.
    public static let fieldNotes = [
        "title": "1…256 bytes", "progress": "0…1", "tint": "#RRGGBB",
        "fields": "at most 16; each key 1…64 bytes, no control characters; each value 1…256 bytes",
    ]

    /// The longest key of `fields`, in UTF-8 bytes.
    public static let maxFieldKeyBytes = 64

    /// A title; progress within 0…1; a hex tint; a few short fields with short, printable keys.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(title, "payload.title", maxBytes: 256)
        try FieldCheck.length(subtitle, "payload.subtitle", maxBytes: 256)
        try FieldCheck.range(progress, 0...1, "payload.progress")
        try FieldCheck.length(icon, "payload.icon", maxBytes: 128)
        try FieldCheck.length(activityId, "payload.activityId", maxBytes: 128)
        if let tint, HexColor(strict: tint) == nil {
            throw .field(.invalidPayload, path: "payload.tint", "expected a colour like #FF6B35")
        }
        if let fields {
            if fields.count > 16 { throw .field(.invalidPayload, path: "payload.fields", "at most 16 fields") }
            // NB: in key order, so a payload with several bad fields is always refused naming the same one.
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                // NB: a bad key is quoted (a bounded, escaped prefix) in the message, never put in the path.
                if key.isEmpty || key.utf8.count > Self.maxFieldKeyBytes {
                    throw .field(
                        .invalidPayload, path: "payload.fields",
                        "key \(Self.quoted(key)) must be 1…\(Self.maxFieldKeyBytes) bytes, got \(key.utf8.count)")
                }
                if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    throw .field(
                        .invalidPayload, path: "payload.fields", "key \(Self.quoted(key)) must not contain control characters")
                }
                try FieldCheck.nonEmpty(value, "payload.fields.\(key)", maxBytes: 256)
            }
        }
    }

    /// `key` for an error message: in double quotes, cut to its first 32 scalars, with quotes,
    /// backslashes and control characters (C1 included) escaped.
    private static func quoted(_ key: String) -> String {
        let shown = key.unicodeScalars.prefix(32).map { $0.escaped(asASCII: (0x80..<0xA0).contains($0.value)) }.joined()
        return "\"\(shown)\(key.unicodeScalars.count > 32 ? "…" : "")\""
    }
}

/// The payload of `end`.
public struct ActivityEnd: Codable, Sendable, Hashable {
    /// How the ended activity leaves the screen (`default` when absent).
    public var dismissalPolicy: DismissalPolicy?
    /// Creates a payload.
    public init(dismissalPolicy: DismissalPolicy? = nil) { self.dismissalPolicy = dismissalPolicy }
}

/// How an ended activity leaves the screen.
public enum DismissalPolicy: String, Codable, Sendable, SchemaEnum {
    /// As the system decides (it may linger a while).
    case `default`
    /// At once.
    case immediate
}

/// The result of `areActivitiesEnabled`.
public struct ActivitiesEnabled: Codable, Sendable, Hashable {
    /// Whether activities can be started.
    public var enabled: Bool
}

/// The result of `start`.
public struct ActivityStarted: Codable, Sendable, Hashable {
    /// Whether an activity started.
    public var started: Bool
    /// Its id.
    public var id: String?
    /// Why none started.
    public var reason: String?
    /// Its push token (hex), when it has one.
    public var pushToken: String?

    /// Creates a result.
    public init(started: Bool, id: String? = nil, reason: String? = nil, pushToken: String? = nil) {
        self.started = started
        self.id = id
        self.reason = reason
        self.pushToken = pushToken
    }
}

/// The result of `update`.
public struct ActivityUpdated: Codable, Sendable, Hashable {
    /// Whether a running activity was updated.
    public var updated: Bool
}

/// The result of `end`.
public struct ActivityEnded: Codable, Sendable, Hashable {
    /// Always true: no activity runs afterwards.
    public var ended: Bool
}

/// The result of `getState`.
public struct ActivityState: Codable, Sendable, Hashable {
    /// Whether an activity runs.
    public var active: Bool
    /// How many run.
    public var count: Int
    /// The first one's id.
    public var id: String?
    /// Its title.
    public var title: String?
    /// Its subtitle.
    public var subtitle: String?
    /// Its progress.
    public var progress: Double?

    /// Creates a result.
    public init(
        active: Bool, count: Int, id: String? = nil, title: String? = nil, subtitle: String? = nil, progress: Double? = nil
    ) {
        self.active = active
        self.count = count
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.progress = progress
    }
}

/// The result of `getPushToken`: `token` is null (present, not left out) when there is none.
public struct ActivityPushToken: Codable, Sendable, Hashable {
    /// The token (hex).
    public var token: String?
    /// Why there is none.
    public var reason: String?

    /// Creates a result.
    public init(token: String?, reason: String? = nil) {
        self.token = token
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey { case token, reason }

    /// Encodes `token` even when it is null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}

/// Live Activities on a platform.
public protocol LiveActivityProvider: Sendable {
    /// Whether activities can be started.
    func enabled() async -> Bool
    /// Starts one.
    func start(_ content: ActivityContent) async throws -> ActivityStarted
    /// Updates every running one; whether any ran.
    func update(_ content: ActivityContent) async throws -> Bool
    /// Ends every running one.
    func end(dismissalPolicy: DismissalPolicy) async throws
    /// What runs.
    func state() async -> ActivityState
    /// The running one's push token.
    func pushToken() async -> ActivityPushToken
}

/// A platform without Live Activities (Linux desktops): the answers iOS gives when they are off.
public struct NoLiveActivities: LiveActivityProvider {
    /// Why nothing starts.
    public static let reason = "this platform has no Live Activities"

    /// Creates the provider.
    public init() {}

    /// False.
    public func enabled() async -> Bool { false }
    /// `started: false` with the reason.
    public func start(_ content: ActivityContent) async throws -> ActivityStarted {
        ActivityStarted(started: false, reason: Self.reason)
    }
    /// False: nothing runs.
    public func update(_ content: ActivityContent) async throws -> Bool { false }
    /// Nothing to end.
    public func end(dismissalPolicy: DismissalPolicy) async throws {}
    /// Nothing runs.
    public func state() async -> ActivityState { ActivityState(active: false, count: 0) }
    /// No token, with the reason.
    public func pushToken() async -> ActivityPushToken { ActivityPushToken(token: nil, reason: Self.reason) }
}
