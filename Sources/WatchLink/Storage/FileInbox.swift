public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory received files are copied into before the session deletes them.
///
/// Each file lives at `<directory>/<transfer id>/<file name>`, next to a `.transfer.json` with its
/// descriptor (kept after ``remove(_:)``, so a late redelivery is recognised). A file is staged in a hidden directory, synced, and renamed into place, so a crash
/// never leaves half a file under a transfer's id; a transfer delivered twice is kept once.
public struct FileInbox: Sendable, Hashable {
    /// The inbox directory.
    public let directory: URL

    static let descriptorName = ".transfer.json"

    /// Uses `directory`, creating it if needed, and removes staging left by a crash.
    ///
    /// - Throws: `storage_failed` if the directory cannot be created or read.
    public init(directory: URL) throws(WatchLinkError) {
        self.directory = directory
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(".staging-") {
                try? manager.removeItem(at: directory.appendingPathComponent(name))
            }
        } catch {
            throw WatchLinkError(
                .storageFailed, "cannot prepare the file inbox: \(error)", details: ["path": directory.path])
        }
    }

    /// Where the file of `transfer` is kept once accepted.
    public func url(for transfer: FileTransfer) -> URL {
        directory.appendingPathComponent(transfer.id.uuidString).appendingPathComponent(transfer.fileName)
    }

    /// Copies a file the session delivered into the inbox.
    ///
    /// - Returns: the file in the inbox, or `nil` if this transfer was already accepted (a redelivery).
    /// - Throws: `invalid_envelope` naming the field when the descriptor is not safe to use as a path
    ///   or the file's size differs from it; `storage_failed` when copying fails.
    public func accept(_ file: ReceivedFile) throws(WatchLinkError) -> ReceivedFile? {
        let transfer = file.transfer
        do { try transfer.validate() } catch {
            throw WatchLinkError(.invalidEnvelope, "received file: \(error.message)", details: error.details)
        }
        let final = directory.appendingPathComponent(transfer.id.uuidString)
        if FileManager.default.fileExists(atPath: final.path) { return nil }
        let staging = directory.appendingPathComponent(".staging-" + transfer.id.uuidString)
        let manager = FileManager.default
        try? manager.removeItem(at: staging)
        do { try manager.createDirectory(at: staging, withIntermediateDirectories: false) } catch {
            throw WatchLinkError(.storageFailed, "cannot stage a received file: \(error)", details: ["path": staging.path])
        }
        do throws(WatchLinkError) {
            let source = systemOpen(file.url.path, O_RDONLY)
            guard source >= 0 else { throw FileStore.failure("open", file.url.path) }
            defer { close(source) }
            let copied = try FileTransfer.copyContents(
                of: source, path: file.url.path, to: staging.appendingPathComponent(transfer.fileName).path)
            guard copied == transfer.size else {
                throw WatchLinkError(
                    .invalidEnvelope, "received \(copied) bytes for a file of \(transfer.size)", details: ["field": "size"])
            }
            try SocketIO.writeAtomically(
                transfer.encoded(), to: staging.appendingPathComponent(Self.descriptorName).path)
            guard rename(staging.path, final.path) == 0 else { throw FileStore.failure("rename", final.path) }
            FileStore.syncDirectory(of: final.path)
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
        return ReceivedFile(transfer: transfer, url: url(for: transfer))
    }

    /// Every file in the inbox, by transfer id.
    ///
    /// - Throws: `storage_failed` if the directory cannot be read.
    public func files() throws(WatchLinkError) -> [ReceivedFile] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw WatchLinkError(.storageFailed, "cannot list the file inbox: \(error)", details: ["path": directory.path])
        }
        var files: [ReceivedFile] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let descriptor = directory.appendingPathComponent(name).appendingPathComponent(Self.descriptorName)
            guard let data = FileManager.default.contents(atPath: descriptor.path),
                let transfer = try? FileTransfer.decodeDescriptor(data), transfer.id.uuidString == name
            else { continue }
            let file = ReceivedFile(transfer: transfer, url: url(for: transfer))
            if FileManager.default.fileExists(atPath: file.url.path) { files.append(file) }
        }
        return files
    }

    /// Removes a received file once the app is done with it.
    ///
    /// NB: the transfer's directory stays with its descriptor alone, so a late redelivery is still
    /// recognised and not accepted again; ``pruneRemoved(before:)`` deletes such records.
    public func remove(_ id: UUID) {
        let folder = directory.appendingPathComponent(id.uuidString)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name != Self.descriptorName {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Deletes the records ``remove(_:)`` kept of transfers removed before `date`, and returns how
    /// many went. Files not yet removed are never touched.
    ///
    /// A record lets a late redelivery be recognised; once it is pruned, that transfer delivered
    /// again is accepted as new. A sender redelivers only a file whose acknowledgement it never got
    /// (the receiver stopped, or the link dropped, between delivery and acknowledgement), and does so
    /// on its next connection, so keep records for longer than the devices may stay apart.
    @discardableResult
    public func pruneRemoved(before date: Date) -> Int {
        let manager = FileManager.default
        var pruned = 0
        for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where !name.hasPrefix(".") {
            let folder = directory.appendingPathComponent(name)
            // NB: removing the file touched the folder, so its time is when the transfer was removed.
            guard let contents = try? manager.contentsOfDirectory(atPath: folder.path),
                contents == [Self.descriptorName],
                let removed = (try? manager.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date,
                removed < date
            else { continue }
            if (try? manager.removeItem(at: folder)) != nil { pruned += 1 }
        }
        return pruned
    }
}
