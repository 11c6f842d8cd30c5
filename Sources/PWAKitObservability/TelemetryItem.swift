public import Foundation
public import PWAKitAPI

/// One thing the app reports: an event, a screen view, a user property, an error or a finished
/// performance span, with its category and flat properties.
public struct TelemetryItem: Hashable, Sendable {
    /// What kind of thing it is.
    public enum Kind: String, Hashable, Sendable {
        /// Something happened (`push_permission_pre_prompt_accepted`).
        case event
        /// A screen was shown.
        case screen
        /// A property of the user changed (`plan=pro`).
        case userProperty = "user_property"
        /// An error was caught.
        case error
        /// A timed operation finished.
        case span
    }

    /// The kind.
    public var kind: Kind
    /// Its name (an event's, a screen's, a property's key, an error's code, a span's name).
    public var name: String
    /// The category it belongs to, which sinks and consent look at.
    public var category: TelemetryCategory
    /// Flat properties.
    public var properties: [String: ScalarValue]
    /// When it happened.
    public var date: Date
    /// How long it took, for a span.
    public var duration: Duration?

    /// Creates an item.
    public init(
        kind: Kind, name: String, category: TelemetryCategory, properties: [String: ScalarValue] = [:], date: Date,
        duration: Duration? = nil
    ) {
        self.kind = kind
        self.name = name
        self.category = category
        self.properties = properties
        self.date = date
        self.duration = duration
    }
}

/// A category of telemetry. Consent is given per category: ``analytics`` and ``performance`` are
/// off until granted; ``diagnostics`` (local logs, error reports kept on the device) needs none.
public struct TelemetryCategory: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The category's name.
    public let rawValue: String
    /// Creates a category.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// Product analytics: events, screens, user properties (sent off the device).
    public static let analytics = TelemetryCategory(rawValue: "analytics")
    /// Performance spans (sent off the device).
    public static let performance = TelemetryCategory(rawValue: "performance")
    /// Errors and logs kept on the device.
    public static let diagnostics = TelemetryCategory(rawValue: "diagnostics")
}
