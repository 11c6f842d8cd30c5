public import Foundation

/// A mini-app in the catalog.
public struct AppRecord: Hashable, Sendable, Codable {
    /// The app id (the manifest's `appId`).
    public var id: String
    /// The name shown in the launcher.
    public var name: String
    /// A short description.
    public var description: String
    /// The icon's URL or bundle path.
    public var icon: String
    /// The path the host opens first.
    public var entryPath: String
    /// The bridge modules the app asks for.
    public var permissions: [String]
    /// The release channels the app publishes on.
    public var channels: [String]
    /// When the app was added.
    public var createdAt: Date

    /// Creates a record.
    public init(
        id: String, name: String, description: String, icon: String, entryPath: String, permissions: [String], channels: [String],
        createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.entryPath = entryPath
        self.permissions = permissions
        self.channels = channels
        self.createdAt = createdAt
    }
}
