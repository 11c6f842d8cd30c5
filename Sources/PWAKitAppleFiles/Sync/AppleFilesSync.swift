public import Foundation
public import PWAKitFiles

/// One file of a sync: what is on disk, what the configuration makes of it, and the difference.
public struct SyncedFile: Sendable {
    /// What a sync does to the file.
    public enum Status: String, Sendable {
        /// The file is as the configuration makes it.
        case unchanged
        /// The file does not exist yet.
        case created
        /// The file exists and differs.
        case updated
    }

    /// The path relative to the output directory.
    public let path: String
    /// The contents on disk; nil when there is no file.
    public let before: Data?
    /// The contents the configuration makes.
    public let after: Data

    /// What a sync does to the file.
    public var status: Status { before == nil ? .created : before == after ? .unchanged : .updated }

    /// The unified diff from the file on disk to the rendered one; empty when unchanged.
    public var diff: String {
        guard status != .unchanged else { return "" }
        return LineDiff.unified(
            before: before.map { String(decoding: $0, as: UTF8.self) }, after: String(decoding: after, as: UTF8.self),
            path: path)
    }
}

/// Compares the Apple files a configuration makes with those in a directory, and writes them.
public enum AppleFilesSync {
    /// Every file `files` renders, against what `directory` holds now. Reading is all it does.
    public static func plan(_ files: AppleFiles, directory: String) throws -> [SyncedFile] {
        var onDisk: [String: Data] = [:]
        let rendered = try files.render { (path: String) throws(AppleFilesError) -> Data? in
            let data: Data?
            do {
                data = try DurableFile.contents(of: directory + "/" + path)
            } catch {
                throw AppleFilesError(
                    .unreadablePropertyList, "\(path) cannot be read: \(error)", field: path)
            }
            onDisk[path] = data
            return data
        }
        return try rendered.map { file in
            let before = try onDisk[file.path] ?? DurableFile.contents(of: directory + "/" + file.path)
            return SyncedFile(path: file.path, before: before, after: file.contents)
        }
    }

    /// Writes each created or updated file of `plan` durably (a new file renamed into place, then
    /// the directory synced), making folders as needed; unchanged files are not touched.
    public static func write(_ plan: [SyncedFile], directory: String) throws(FileSystemError) {
        for file in plan where file.status != .unchanged {
            let path = directory + "/" + file.path
            try DurableFile.makeDirectory((path as NSString).deletingLastPathComponent)
            try DurableFile.replace(path, with: file.after)
        }
    }
}
