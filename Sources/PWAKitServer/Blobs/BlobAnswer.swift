import Foundation
import HTTPTypes
import PWAKitBundles

/// What a `GET` or `HEAD` of a stored blob answers, decided from the request's conditional and range
/// headers and the blob's size: immutable, with a strong ETag, conditional GET and single byte ranges.
///
/// The router's blob route and the HTTP/1.1 pipeline both answer from it.
enum BlobAnswer: Equatable {
    /// 304: the client's copy is current.
    case notModified
    /// 200 with every byte.
    case whole
    /// 206 with these bytes.
    case partial(ClosedRange<Int>)
    /// 416: the range selects no bytes.
    case unsatisfiable

    /// The answer for a blob of `size` bytes and these request header values.
    init(hash: String, size: Int, ifNoneMatch: String?, range: String?, ifRange: String?) {
        let etag = Self.etag(hash)
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: { ["*", etag].contains($0.trimmingCharacters(in: .whitespaces)) })
        {
            self = .notModified
            return
        }
        var parsed = ByteRange.parse(range, size: size)
        if let ifRange, ifRange.trimmingCharacters(in: .whitespaces) != etag { parsed = .whole }
        switch parsed {
        case .whole: self = .whole
        case .partial(let bytes): self = .partial(bytes)
        case .unsatisfiable: self = .unsatisfiable
        }
    }

    /// The answer for a blob of `size` bytes and these request headers.
    init(hash: String, size: Int, request: HTTPFields) {
        self.init(
            hash: hash, size: size, ifNoneMatch: request[.ifNoneMatch], range: request[.range], ifRange: request[.ifRange])
    }

    /// The bytes the body carries (`nil` for none).
    func bodyRange(size: Int) -> ClosedRange<Int>? {
        switch self {
        case .whole: size > 0 ? 0...(size - 1) : nil
        case .partial(let bytes): bytes
        case .notModified, .unsatisfiable: nil
        }
    }

    /// The response headers of a 200, 206 or 304 (`Content-Length` included where there is content).
    func headers(hash: String, size: Int) -> HTTPFields {
        var headers: HTTPFields = [
            .eTag: Self.etag(hash), .cacheControl: Self.cacheControl, .acceptRanges: "bytes", .contentType: Self.contentType,
        ]
        switch self {
        case .whole:
            headers[.contentLength] = "\(size)"
        case .partial(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
            headers[.contentLength] = "\(bytes.count)"
        case .notModified, .unsatisfiable:
            break
        }
        return headers
    }

    /// The strong ETag of a blob: its hash, quoted.
    static func etag(_ hash: String) -> String { "\"\(hash)\"" }
    /// Blobs never change.
    static let cacheControl = "public, max-age=31536000, immutable"
    static let contentType = "application/octet-stream"
}
