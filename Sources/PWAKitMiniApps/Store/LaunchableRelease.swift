public import Foundation
public import PWAKitBundles

/// The release a launch opens: its manifest and where each of its files is in the store.
public struct LaunchableRelease: Sendable, Hashable {
    /// The app.
    public let appId: String
    /// The bundle hash.
    public let bundleHash: String
    /// The verified manifest.
    public let manifest: ReleaseManifest
    /// Whether the release has yet to report ready (its first launches after activation).
    public let onProbation: Bool
    /// The store's blob directory.
    let blobRoot: String
    private let filesByPath: [String: ManifestFile]

    init(appId: String, bundleHash: String, manifest: ReleaseManifest, onProbation: Bool, blobRoot: String) {
        self.appId = appId
        self.bundleHash = bundleHash
        self.manifest = manifest
        self.onProbation = onProbation
        self.blobRoot = blobRoot
        filesByPath = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The file at a bundle path (`assets/app.js`, no leading `/`) and where its bytes are.
    public func file(at path: String) -> (entry: ManifestFile, location: URL)? {
        guard let entry = filesByPath[path] else { return nil }
        return (entry, URL(fileURLWithPath: BundleStore.blobPath(entry.sha256, root: blobRoot)))
    }

    /// The page opened first.
    public var entryPath: String { manifest.entry }
}
