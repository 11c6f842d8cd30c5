public import PWAKitCore

/// `badging`: the app icon's badge (the Badging API's `setAppBadge` / `clearAppBadge`).
public struct BadgingModule: ActionModule {
    /// `badging`.
    public static let moduleName = "badging"
    /// One line for the reference.
    public static let summary = "The app icon's badge count (the Badging API's shape)."
    /// `set`, `clear`.
    public static let actions = ModuleActions<BadgingModule>()
        .action(
            "set", payload: BadgeCount.self, result: NoResult.self, summary: "Shows `count` on the app icon; 0 clears it.",
            example: BadgeCount(count: 3)
        ) { module, badge, _ in
            try await module.provider.setBadge(badge.count)
            return NoResult()
        }
        .action("clear", result: NoResult.self, summary: "Removes the badge.") { module, _ in
            try await module.provider.setBadge(0)
            return NoResult()
        }

    let provider: any BadgeProvider

    /// Creates the module over `provider`.
    public init(provider: any BadgeProvider) {
        self.provider = provider
    }
}

/// The payload of `badging.set` and `notifications.setBadge`.
public struct BadgeCount: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The number to show.
    public var count: Int

    /// Creates a payload.
    public init(count: Int) { self.count = count }

    /// The range.
    public static let fieldNotes = ["count": "0…999999"]

    /// 0…999999.
    public func validate() throws(BridgeError) {
        try FieldCheck.range(count, 0...999_999, "payload.count")
    }
}

/// Shows a count on the app icon.
public protocol BadgeProvider: Sendable {
    /// Shows `count`; 0 removes the badge.
    func setBadge(_ count: Int) async throws
}
