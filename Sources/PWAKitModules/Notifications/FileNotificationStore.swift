public import Foundation
import PWAKitCore
import PWAKitFiles

/// A ``NotificationStore`` in one JSON file, replaced crash-safely on every save (a kill at any
/// instant leaves the previous schedule or the new one, never a torn file).
public struct FileNotificationStore: NotificationStore {
    /// The file.
    public let url: URL

    /// The store in `url` (its directory is created on the first save).
    public init(url: URL) {
        self.url = url
    }

    /// The saved snapshot, `nil` when there is no file; a file that is not a snapshot throws.
    public func load() throws -> NotificationStoreSnapshot? {
        guard let data = try DurableFile.contents(of: url.path) else { return nil }
        return try JSONParser.parse(data).decode(NotificationStoreSnapshot.self)
    }

    /// Replaces the file with `snapshot`.
    public func save(_ snapshot: NotificationStoreSnapshot) throws {
        try DurableFile.makeDirectory(url.deletingLastPathComponent().path, permissions: 0o700)
        let text = JSONSerializer.serialize(try JSONValue(encoding: snapshot))
        try DurableFile.replace(url.path, with: Array(text.utf8), permissions: 0o600)
    }
}
