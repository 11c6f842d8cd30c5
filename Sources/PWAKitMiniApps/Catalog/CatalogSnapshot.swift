public import Foundation
public import PWAKitAPI

/// The catalog as last fetched: every app, the validator for the next conditional request, and
/// whether it could be confirmed with the server just now.
public struct CatalogSnapshot: Codable, Sendable, Hashable {
    /// The apps.
    public var apps: [AppResponse]
    /// The server's ETag for this list.
    public var etag: String?
    /// When the server last confirmed the list.
    public var fetchedAt: Date
    /// Whether the last attempt to confirm it failed (offline): the list is the last good copy.
    public var isStale: Bool

    /// Creates a snapshot.
    public init(apps: [AppResponse], etag: String?, fetchedAt: Date, isStale: Bool) {
        self.apps = apps
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }
}
