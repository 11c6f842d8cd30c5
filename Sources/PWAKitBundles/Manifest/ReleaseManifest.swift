import Foundation

/// The description of one release of a mini-app: which files, in which version, on which channel.
///
/// The publisher signs the exact bytes of an encoded manifest; everybody else keeps and passes on
/// those bytes unchanged and decodes them only to read the fields.
public struct ReleaseManifest: Codable, Hashable, Sendable {
    /// The only manifest format version understood today.
    public static let currentFormat = 1

    /// The manifest format version (`1`).
    public var format: Int
    /// The mini-app the release belongs to.
    public var appId: String
    /// The release's semantic version (`MAJOR.MINOR.PATCH`); versions only move forward per channel.
    public var version: String
    /// The channel the release is published on (`stable`, `beta`, …).
    public var channel: String
    /// The path of the page the host opens first; one of ``files``.
    public var entry: String
    /// Every file of the bundle, sorted by path.
    public var files: [ManifestFile]

    /// Creates a manifest; ``files`` are kept in the given order (``ManifestCoding`` sorts them).
    public init(
        format: Int = ReleaseManifest.currentFormat, appId: String, version: String, channel: String, entry: String,
        files: [ManifestFile]
    ) {
        self.format = format
        self.appId = appId
        self.version = version
        self.channel = channel
        self.entry = entry
        self.files = files
    }

    /// The total size in bytes of all files.
    public var totalSize: Int { files.reduce(0) { $0 + $1.size } }

    /// The distinct blob hashes the release needs.
    public var blobHashes: Set<String> { Set(files.map(\.sha256)) }
}
