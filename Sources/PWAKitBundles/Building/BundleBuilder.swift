import Crypto
public import Foundation

/// Builds a ``ReleaseManifest`` from a directory of web files.
public struct BundleBuilder: Sendable {
    /// The directory whose files make the bundle.
    public let root: URL

    /// Creates a builder for a directory.
    public init(root: URL) { self.root = root.standardizedFileURL }

    /// Lists every regular file under ``root`` with its hash, size and content type, sorted by path.
    ///
    /// Hidden files and folders (names starting with `.`) are skipped; symbolic links are refused
    /// so a bundle never reaches outside its directory.
    public func files() throws -> [ManifestFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BundleError(.ioFailure, "\(root.path) is not a directory", field: "directory")
        }
        var result: [ManifestFile] = []
        try collect(directory: root, relative: "", into: &result)
        return result.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Builds the manifest for the directory.
    public func manifest(appId: String, version: String, channel: String, entry: String) throws -> ReleaseManifest {
        let manifest = ReleaseManifest(appId: appId, version: version, channel: channel, entry: entry, files: try files())
        try ManifestCoding.validate(manifest)
        return manifest
    }

    /// The on-disk location of a bundle path.
    public func url(for path: String) -> URL { root.appendingPathComponent(path) }

    private func collect(directory: URL, relative: String, into result: inout [ManifestFile]) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw BundleError(
                .ioFailure, "cannot list \(directory.path): \(error.localizedDescription)",
                field: relative.isEmpty ? nil : relative)
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            let path = relative.isEmpty ? name : relative + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let type = attributes[.type] as? FileAttributeType
            if type == .typeDirectory {
                try collect(directory: url, relative: path, into: &result)
            } else if type == .typeRegular {
                try ManifestRules.checkPath(path, field: path)
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw BundleError(.ioFailure, "cannot read \(path): \(error.localizedDescription)", field: path)
                }
                result.append(
                    ManifestFile(
                        path: path, sha256: SHA256.hex(of: data), size: data.count, contentType: ContentTypes.forPath(path)))
            } else {
                throw BundleError(.ioFailure, "only regular files and directories may be bundled", field: path)
            }
        }
    }
}
