public import Foundation
import PWAKitCore
import PWAKitFiles

/// A ``NotificationStore`` in one JSON file, replaced crash-safely on every save (a kill at any
/// instant leaves the previous schedule or the new one, never a torn file). A file it cannot read
/// is set aside in `rejected/` beside it, as `<name>-<milliseconds since 1970>.json` with the
/// reason in a `.reason` file of the same name, as `ShareOutbox` does with shares.
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

    /// The folder unreadable files are moved to: `rejected/` beside the file.
    public var rejectedDirectory: URL { url.deletingLastPathComponent().appendingPathComponent("rejected") }

    /// Moves the file, unchanged, to ``rejectedDirectory`` as `<name>-<now in milliseconds>.json`
    /// (`-2`, `-3`, … when that is taken) beside a `.reason` file holding `reason`; the path it
    /// moved to.
    public func setAside(because reason: String) throws -> String {
        let folder = rejectedDirectory
        try DurableFile.makeDirectory(folder.path, permissions: 0o700)
        let stem = "\(url.deletingPathExtension().lastPathComponent)-\(Int64((Date().timeIntervalSince1970 * 1000).rounded()))"
        for attempt in 1...1000 {
            let name = attempt == 1 ? stem : "\(stem)-\(attempt)"
            // NB: the reason is created exclusively first, so the name is this call's alone.
            guard
                try DurableFile.createExclusively(
                    folder.appendingPathComponent(name + ".reason").path, with: Array(reason.utf8))
            else { continue }
            let destination = folder.appendingPathComponent(name + ".json").path
            try DurableFile.move(url.path, to: destination)
            return destination
        }
        throw FileSystemError(.ioFailed, operation: "set aside", path: url.path, errno: EEXIST)
    }
}
