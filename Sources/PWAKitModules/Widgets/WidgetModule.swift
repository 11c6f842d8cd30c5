public import PWAKitCore

/// `widget` [features.widgets, off by default]: home-screen widgets fed by the page, as the PWAKit
/// project's SDK drives them.
///
/// Hosts without widgets (Linux desktops) list no kinds and answer `updated`, `removed` and
/// `reloaded` false with the reason: nothing is shown, and the page can tell.
public struct WidgetModule: ActionModule {
    /// `widget`.
    public static let moduleName = "widget"
    /// `widgets` (the PWAKit project's flag name).
    public static let featureFlag: String? = "widgets"
    /// One line for the reference.
    public static let summary =
        "Home-screen widgets fed by the page; hosts without widgets list no kinds and answer false with the reason."
    /// The actions.
    public static let actions = ModuleActions<WidgetModule>()
        .action("getKinds", result: WidgetKinds.self, summary: "The widget kinds the app offers.") { module, _ in
            WidgetKinds(kinds: await module.provider.kinds())
        }
        .action(
            "update", payload: WidgetContent.self, result: WidgetUpdated.self,
            summary: "Sets what widgets of a kind show; `updated` is false, with `reason`, where no such widget exists.",
            example: WidgetContent(kind: "status", title: "Steps", value: "8,431", subtitle: "Today")
        ) { module, content, _ in
            try await module.provider.update(content)
        }
        .action(
            "remove", payload: WidgetKind.self, result: WidgetRemoved.self,
            summary: "Clears what widgets of a kind show.", example: WidgetKind(kind: "status")
        ) { module, kind, _ in
            WidgetRemoved(removed: try await module.provider.remove(kind.kind), kind: kind.kind)
        }
        .action("reloadAll", result: WidgetsReloaded.self, summary: "Asks every widget to redraw.") { module, _ in
            WidgetsReloaded(reloaded: try await module.provider.reloadAll())
        }

    let provider: any WidgetProvider

    /// Creates the module over `provider`.
    public init(provider: any WidgetProvider = NoWidgets()) {
        self.provider = provider
    }
}

/// What a widget kind shows: the payload of `update`.
public struct WidgetContent: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The kind.
    public var kind: String
    /// The title.
    public var title: String
    /// The main value.
    public var value: String?
    /// The subtitle.
    public var subtitle: String?
    /// A symbol name.
    public var icon: String?
    /// A colour, `#RRGGBB`.
    public var tint: String?
    /// What a tap opens.
    public var url: String?

    /// Creates content.
    public init(
        kind: String, title: String, value: String? = nil, subtitle: String? = nil, icon: String? = nil,
        tint: String? = nil, url: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.value = value
        self.subtitle = subtitle
        self.icon = icon
        self.tint = tint
        self.url = url
    }

    /// The rules.
    public static let fieldNotes = ["kind": "1…64 bytes", "title": "1…256 bytes", "tint": "#RRGGBB"]

    /// A kind and a title; short texts; a hex tint.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(kind, "payload.kind", maxBytes: 64)
        try FieldCheck.nonEmpty(title, "payload.title", maxBytes: 256)
        for (value, path) in [(self.value, "value"), (subtitle, "subtitle"), (icon, "icon")] {
            try FieldCheck.length(value, "payload.\(path)", maxBytes: 256)
        }
        try FieldCheck.length(url, "payload.url", maxBytes: 2048)
        if let tint, HexColor(strict: tint) == nil {
            throw .field(.invalidPayload, path: "payload.tint", "expected a colour like #FF6B35")
        }
    }
}

/// The payload of `remove`.
public struct WidgetKind: Codable, Sendable, Hashable, ValidatedPayload {
    /// The kind.
    public var kind: String
    /// Creates a payload.
    public init(kind: String) { self.kind = kind }
    /// 1…64 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(kind, "payload.kind", maxBytes: 64) }
}

/// The result of `getKinds`.
public struct WidgetKinds: Codable, Sendable, Hashable {
    /// The kinds.
    public var kinds: [String]
}

/// The result of `update`.
public struct WidgetUpdated: Codable, Sendable, Hashable {
    /// Whether widgets of the kind will show it.
    public var updated: Bool
    /// The kind.
    public var kind: String
    /// Why not.
    public var reason: String?

    /// Creates a result.
    public init(updated: Bool, kind: String, reason: String? = nil) {
        self.updated = updated
        self.kind = kind
        self.reason = reason
    }
}

/// The result of `remove`.
public struct WidgetRemoved: Codable, Sendable, Hashable {
    /// Whether something was cleared.
    public var removed: Bool
    /// The kind.
    public var kind: String
}

/// The result of `reloadAll`.
public struct WidgetsReloaded: Codable, Sendable, Hashable {
    /// Whether widgets were asked to redraw.
    public var reloaded: Bool
}

/// Widgets on a platform.
public protocol WidgetProvider: Sendable {
    /// The kinds the app offers.
    func kinds() async -> [String]
    /// Sets what a kind shows.
    func update(_ content: WidgetContent) async throws -> WidgetUpdated
    /// Clears what a kind shows; whether there was anything.
    func remove(_ kind: String) async throws -> Bool
    /// Asks every widget to redraw; whether any exists.
    func reloadAll() async throws -> Bool
}

/// A platform without widgets (Linux desktops).
public struct NoWidgets: WidgetProvider {
    /// Why nothing is shown.
    public static let reason = "this platform has no home-screen widgets"

    /// Creates the provider.
    public init() {}

    /// None.
    public func kinds() async -> [String] { [] }
    /// `updated: false` with the reason.
    public func update(_ content: WidgetContent) async throws -> WidgetUpdated {
        WidgetUpdated(updated: false, kind: content.kind, reason: Self.reason)
    }
    /// False.
    public func remove(_ kind: String) async throws -> Bool { false }
    /// False.
    public func reloadAll() async throws -> Bool { false }
}
