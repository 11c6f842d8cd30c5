/// The `appearance` section: how the app presents itself.
public struct AppearanceSection: Codable, Sendable, Equatable {
    /// Standalone (system bars visible) or fullscreen.
    public var displayMode: DisplayMode
    /// Whether pulling down reloads the page.
    public var pullToRefresh: Bool
    /// The status bar text colour.
    public var statusBarStyle: StatusBarStyle
    /// Which orientations the app allows.
    public var orientationLock: OrientationLock
    /// The colour behind the web content, or nil for the platform default.
    public var backgroundColor: HexColor?
    /// The accent colour of native chrome, or nil for the platform default.
    public var themeColor: HexColor?

    /// Creates the section; every argument defaults to the documented default.
    public init(
        displayMode: DisplayMode = .standalone, pullToRefresh: Bool = false, statusBarStyle: StatusBarStyle = .adaptive,
        orientationLock: OrientationLock = .any, backgroundColor: HexColor? = nil, themeColor: HexColor? = nil
    ) {
        self.displayMode = displayMode
        self.pullToRefresh = pullToRefresh
        self.statusBarStyle = statusBarStyle
        self.orientationLock = orientationLock
        self.backgroundColor = backgroundColor
        self.themeColor = themeColor
    }

    private enum CodingKeys: String, CodingKey {
        case displayMode, pullToRefresh, statusBarStyle, orientationLock, backgroundColor, themeColor
    }

    /// Decodes the section; a missing key takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayMode = try container.decodeIfPresent(DisplayMode.self, forKey: .displayMode) ?? .standalone
        pullToRefresh = try container.decodeIfPresent(Bool.self, forKey: .pullToRefresh) ?? false
        statusBarStyle = try container.decodeIfPresent(StatusBarStyle.self, forKey: .statusBarStyle) ?? .adaptive
        orientationLock = try container.decodeIfPresent(OrientationLock.self, forKey: .orientationLock) ?? .any
        backgroundColor = try container.decodeIfPresent(HexColor.self, forKey: .backgroundColor)
        themeColor = try container.decodeIfPresent(HexColor.self, forKey: .themeColor)
    }
}

/// How the app occupies the screen.
public enum DisplayMode: String, Codable, Sendable, CaseIterable {
    /// System bars stay visible.
    case standalone
    /// The web content covers the whole screen.
    case fullscreen
}

/// The status bar text colour.
public enum StatusBarStyle: String, Codable, Sendable, CaseIterable {
    /// Follows light and dark mode.
    case adaptive
    /// Light text, for dark content.
    case light
    /// Dark text, for light content.
    case dark
}

/// The orientations the app allows.
public enum OrientationLock: String, Codable, Sendable, CaseIterable {
    /// Any orientation.
    case any
    /// Portrait only.
    case portrait
    /// Landscape only.
    case landscape
}
