public import Foundation
import PWAKitAPI
import PWAKitFiles
import PWAKitLinks

/// A share waiting to be sent: the link as shared, the note, and the id that makes sending it
/// again harmless.
public struct PendingShare: Codable, Hashable, Sendable {
    /// A lowercase UUID, also the file's name.
    public var id: String
    /// The URL as shared.
    public var url: String
    /// The note, if any.
    public var note: String?
    /// When it was shared, in milliseconds since 1970.
    public var sharedAt: Int64

    /// Creates a share.
    public init(id: String, url: String, note: String?, sharedAt: Int64) {
        self.id = id
        self.url = url
        self.note = note
        self.sharedAt = sharedAt
    }
}

/// Shares kept on disk until the server has them, in the app group where every process of the
/// app (the app, a share extension, `pwakit share`) opens the same folder: one file per share,
/// written under a temporary name, synced and linked into place, so a share is either wholly
/// there or not at all, whatever process is killed when. A share the server refuses moves to
/// `rejected/` with the reason, so nothing is lost silently.
public struct ShareOutbox: Sendable {
    /// The folder of pending shares (`rejected/` inside it).
    public let directory: URL

    /// The outbox in `directory`, created if missing.
    public init(directory: URL) throws {
        self.directory = directory
        try DurableFile.makeDirectory(directory.appendingPathComponent("rejected").path, permissions: 0o700)
    }

    /// Checks `url` (``LinkError`` naming `url` when it cannot be shared) and `note`, then keeps the
    /// share on disk; it is there once this returns.
    public func enqueue(url: String, note: String?, now: Date = Date()) throws -> PendingShare {
        _ = try CanonicalURL(url)
        if let note, let problem = PostRules.instructionsProblem(note) { throw ShareError(field: "note", problem) }
        let share = PendingShare(
            id: UUID().uuidString.lowercased(), url: url, note: note?.isEmpty == true ? nil : note,
            sharedAt: Int64((now.timeIntervalSince1970 * 1000).rounded()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(share))
        guard try DurableFile.createExclusively(path(share.id), with: bytes) else {
            throw ShareError(field: "id", "a share with this id is already queued")
        }
        return share
    }

    /// The shares waiting, oldest first. A file that cannot be read moves to `rejected/`.
    public func pending() throws -> [PendingShare] {
        var shares: [PendingShare] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name.hasSuffix(".json") && name.count == 41 {
            let file = directory.appendingPathComponent(name)
            guard let data = try DurableFile.contents(of: file.path) else { continue }
            if let share = try? JSONDecoder().decode(PendingShare.self, from: data), share.id + ".json" == name {
                shares.append(share)
            } else {
                try reject(id: String(name.dropLast(5)), reason: "the file is not a share this version reads")
            }
        }
        return shares.sorted { ($0.sharedAt, $0.id) < ($1.sharedAt, $1.id) }
    }

    /// The shares the server refused, with the reasons.
    public func rejected() throws -> [(id: String, reason: String)] {
        let folder = directory.appendingPathComponent("rejected")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".reason") }.sorted()
            .map { name in
                let reason =
                    (try? DurableFile.contents(of: folder.appendingPathComponent(name).path))
                    .flatMap { $0.map { String(decoding: $0, as: UTF8.self) } } ?? ""
                return (String(name.dropLast(7)), reason)
            }
    }

    /// Removes a share the server has.
    public func remove(id: String) throws {
        if unlink(path(id)) != 0, errno != ENOENT { throw DurableFile.failure("unlink", path(id)) }
        try DurableFile.syncDirectory(of: path(id))
    }

    /// Moves a share aside with why it was refused.
    public func reject(id: String, reason: String) throws {
        let folder = directory.appendingPathComponent("rejected")
        _ = try DurableFile.createExclusively(
            folder.appendingPathComponent(id + ".reason").path, with: Array(reason.utf8))
        if FileManager.default.fileExists(atPath: path(id)) {
            try DurableFile.move(path(id), to: folder.appendingPathComponent(id + ".json").path)
        }
    }

    private func path(_ id: String) -> String { directory.appendingPathComponent(id + ".json").path }
}
