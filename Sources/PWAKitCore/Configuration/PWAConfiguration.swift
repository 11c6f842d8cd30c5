/// The contents of `pwa-config.json`, schema version 1 (compatible with the seed's files).
///
/// Build one with ``ConfigurationLoader``, which validates before decoding: an invalid
/// file is an error carrying the full ``ValidationReport``, never a silent default.
public struct PWAConfiguration: Codable, Sendable, Equatable {
    /// The schema versions this build understands.
    public static let supportedVersions = [1]

    /// The schema version of the file; only `1` today.
    public var version: Int
    /// The app's identity and where it starts.
    public var app: AppSection
    /// Which origins load in the app, sign the user in, or open outside it.
    public var origins: OriginsSection
    /// Which native features are enabled.
    public var features: FeatureFlags
    /// How the app looks.
    public var appearance: AppearanceSection
    /// Push notification settings, when the app uses them.
    public var notifications: NotificationsSection?
    /// Who is paid (`payments`), for apps that take payments.
    public var payments: PaymentsSection?
    /// The defaults of the app's feature flags (`flags`): a string, a number or a boolean each; the
    /// server's values and test overrides win over them.
    public var flags: [String: JSONValue]?
    /// The names the app is known by outside its code (`identifiers`); read them through ``AppIdentifiers``.
    public var identifiers: IdentifiersSection?
    /// Where the app takes what people share to it (`shareTarget`, the manifest's `share_target`).
    public var shareTarget: ShareTargetSection?

    /// Creates a configuration from its sections.
    public init(
        version: Int = 1,
        app: AppSection,
        origins: OriginsSection,
        features: FeatureFlags = FeatureFlags(),
        appearance: AppearanceSection = AppearanceSection(),
        notifications: NotificationsSection? = nil,
        payments: PaymentsSection? = nil,
        flags: [String: JSONValue]? = nil,
        identifiers: IdentifiersSection? = nil,
        shareTarget: ShareTargetSection? = nil
    ) {
        self.version = version
        self.app = app
        self.origins = origins
        self.features = features
        self.appearance = appearance
        self.notifications = notifications
        self.payments = payments
        self.flags = flags
        self.identifiers = identifiers
        self.shareTarget = shareTarget
    }

    private enum CodingKeys: String, CodingKey {
        case version, app, origins, features, appearance, notifications, payments, flags, identifiers, shareTarget
    }

    /// Decodes a configuration; `features` and `appearance` take their defaults when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        app = try container.decode(AppSection.self, forKey: .app)
        origins = try container.decode(OriginsSection.self, forKey: .origins)
        features = try container.decodeIfPresent(FeatureFlags.self, forKey: .features) ?? FeatureFlags()
        appearance = try container.decodeIfPresent(AppearanceSection.self, forKey: .appearance) ?? AppearanceSection()
        notifications = try container.decodeIfPresent(NotificationsSection.self, forKey: .notifications)
        payments = try container.decodeIfPresent(PaymentsSection.self, forKey: .payments)
        flags = try container.decodeIfPresent([String: JSONValue].self, forKey: .flags)
        identifiers = try container.decodeIfPresent(IdentifiersSection.self, forKey: .identifiers)
        shareTarget = try container.decodeIfPresent(ShareTargetSection.self, forKey: .shareTarget)
    }
}

/// The `app` section: the app's identity and start page.
public struct AppSection: Codable, Sendable, Equatable {
    /// The name shown to people.
    public var name: String
    /// The reverse-DNS bundle identifier; it also keys the app's private website data.
    public var bundleId: String
    /// The first page: `https://…`, `http://localhost…` in development, or `app://<appId>/…`.
    public var startUrl: String

    /// Creates the section.
    public init(name: String, bundleId: String, startUrl: String) {
        self.name = name
        self.bundleId = bundleId
        self.startUrl = startUrl
    }
}

/// The `notifications` section.
public struct NotificationsSection: Codable, Sendable, Equatable {
    /// The push provider; only `apns` today.
    public var provider: NotificationProvider

    /// Creates the section.
    public init(provider: NotificationProvider = .apns) {
        self.provider = provider
    }
}

/// A push notification provider.
public enum NotificationProvider: String, Codable, Sendable, CaseIterable {
    /// Apple Push Notification service.
    case apns
}
