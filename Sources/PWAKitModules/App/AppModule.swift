public import PWAKitCore

/// `app`: the app's version, the store review prompt and the system settings. Always available.
public struct AppModule: ActionModule {
    /// `app`.
    public static let moduleName = "app"
    /// One line for the reference.
    public static let summary = "The app's version, the store review prompt and the app's system settings."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("app.settings_unavailable", "This host has no settings screen to open.")
    ]
    /// `getVersion`, `requestReview`, `openSettings`.
    public static let actions = ModuleActions<AppModule>()
        .action("getVersion", result: AppVersion.self, summary: "The app's marketing version and build number.") {
            _, context in
            AppVersion(version: context.app.version, build: context.app.build)
        }
        .action(
            "requestReview", result: ReviewRequest.self,
            summary: "Asks the system to show its review prompt (it may decline to; `requested` says whether it was asked)."
        ) { module, _ in
            ReviewRequest(requested: try await module.provider.requestReview())
        }
        .action("openSettings", result: SettingsOpened.self, summary: "Opens the app's page in the system settings.") {
            module, _ in
            SettingsOpened(opened: try await module.provider.openSettings())
        }

    let provider: any AppServicesProvider

    /// Creates the module over `provider`.
    public init(provider: any AppServicesProvider) {
        self.provider = provider
    }
}

/// The result of `app.getVersion`.
public struct AppVersion: Codable, Sendable, Hashable {
    /// The marketing version, e.g. `1.4.0`.
    public var version: String
    /// The build number.
    public var build: String
    /// The PWAKit version (as the PWAKit project's `app.getVersion` reports it).
    public var pwaKitVersion: String = PWAKit.version
}

/// The result of `app.requestReview`.
public struct ReviewRequest: Codable, Sendable, Hashable {
    /// Whether the system was asked to show its prompt (it decides whether it does).
    public var requested: Bool
    /// ``requested`` under the PWAKit project's name (the system decides whether its prompt shows).
    public private(set) var presented: Bool

    /// The outcome: `requested` under both names.
    public init(requested: Bool) {
        self.requested = requested
        self.presented = requested
    }
}

/// The result of `app.openSettings`.
public struct SettingsOpened: Codable, Sendable, Hashable {
    /// Whether the settings opened.
    public var opened: Bool
}

/// What the `app` module needs from the system.
public protocol AppServicesProvider: Sendable {
    /// Asks for the review prompt; returns whether it was requested.
    func requestReview() async throws -> Bool
    /// Opens the app's settings; returns whether they opened. Throw `app.settings_unavailable`
    /// when there are none.
    func openSettings() async throws -> Bool
}
