/// The body of `POST /v1/blobs/missing`.
public struct MissingBlobsRequest: Codable, Hashable, Sendable {
    /// The hashes to look up.
    public var sha256: [String]

    /// Wraps a list of hashes.
    public init(sha256: [String]) { self.sha256 = sha256 }
}

/// The answer to `POST /v1/blobs/missing`.
public struct MissingBlobsResponse: Codable, Hashable, Sendable {
    /// The hashes the server does not hold.
    public var missing: [String]

    /// Wraps a list of hashes.
    public init(missing: [String]) { self.missing = missing }
}

/// The answer to `PUT /v1/blobs/{sha256}`.
public struct BlobPutResponse: Codable, Hashable, Sendable {
    /// The blob's address.
    public var sha256: String
    /// Its size in bytes.
    public var size: Int
    /// Whether this upload stored it (false: it was already there).
    public var created: Bool

    /// Creates an answer.
    public init(sha256: String, size: Int, created: Bool) {
        self.sha256 = sha256
        self.size = size
        self.created = created
    }
}
