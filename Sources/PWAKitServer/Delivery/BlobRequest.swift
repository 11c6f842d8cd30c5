/// A bodiless HTTP/1.1 `GET` or `HEAD` of `/v1/blobs/{sha256}`, which the pipeline may answer itself.
struct BlobRequest: Equatable, Sendable {
    /// The two methods answered in the pipeline.
    enum Method: Equatable, Sendable { case get, head }

    var method: Method
    var key: BlobKey
    var ifNoneMatch: String?
    var range: String?
    var ifRange: String?
}
