/// One file of a release: where it lives in the bundle and the content that must be there.
public struct ManifestFile: Codable, Hashable, Sendable {
    /// The file's path inside the bundle, `/`-separated and relative (`assets/app.js`).
    public var path: String
    /// The lowercase hexadecimal SHA-256 of the file's bytes; also its address in the blob store.
    public var sha256: String
    /// The file's size in bytes.
    public var size: Int
    /// The media type the file is served with (`text/html; charset=utf-8`).
    public var contentType: String

    /// Creates a file entry.
    public init(path: String, sha256: String, size: Int, contentType: String) {
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.contentType = contentType
    }
}
