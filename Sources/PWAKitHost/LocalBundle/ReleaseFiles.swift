public import Foundation
public import PWAKitBundles

/// The files of a signed release as an `app://` origin serves them: each bundle path mapped to
/// its bytes in a content-addressed store, with the size, media type and hash the verified
/// manifest gives it.
public struct ReleaseFiles: Sendable {
    /// One served file.
    public struct File: Sendable, Hashable {
        /// Where the bytes are.
        public var location: URL
        /// The manifest's entry.
        public var entry: ManifestFile
    }

    /// The files by bundle path.
    public let files: [String: File]
    /// The page opened first.
    public let entry: String

    /// Maps every file of `manifest` to the location `blob` gives its hash.
    public init(manifest: ReleaseManifest, blob: (_ sha256: String) -> URL) {
        var files: [String: File] = [:]
        for file in manifest.files { files[file.path] = File(location: blob(file.sha256), entry: file) }
        self.files = files
        self.entry = manifest.entry
    }

    /// The file at a bundle path, or for a directory path its `index.html`.
    func file(at segments: [String]) -> File? {
        let path = segments.joined(separator: "/")
        if let file = files[path] { return file }
        return files[path.isEmpty ? "index.html" : path + "/index.html"]
    }
}
