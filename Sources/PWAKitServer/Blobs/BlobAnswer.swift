import Foundation
import HTTPTypes
import PWAKitBundles

/// What a `GET` or `HEAD` of a stored blob answers, decided from the request's headers and the blob's
/// size: immutable, with a strong ETag, conditional GET and single byte ranges.
enum BlobAnswer: Equatable {
    /// 304: the client's copy is current.
    case notModified(HTTPFields)
    /// 200 or 206 with these headers (`Content-Length` included) and the bytes of `range`, if any.
    case content(HTTPResponse.Status, HTTPFields, range: ClosedRange<Int>?)
    /// 416: the range selects no bytes.
    case unsatisfiable

    init(hash: String, size: Int, request: HTTPFields) {
        let etag = "\"\(hash)\""
        var headers: HTTPFields = [
            .eTag: etag, .cacheControl: "public, max-age=31536000, immutable", .acceptRanges: "bytes",
            .contentType: "application/octet-stream",
        ]
        if let match = request[.ifNoneMatch],
            match.split(separator: ",").contains(where: { ["*", etag].contains($0.trimmingCharacters(in: .whitespaces)) })
        {
            self = .notModified(headers)
            return
        }
        var range = ByteRange.parse(request[.range], size: size)
        if let ifRange = request[.ifRange], ifRange.trimmingCharacters(in: .whitespaces) != etag { range = .whole }
        switch range {
        case .whole:
            headers[.contentLength] = "\(size)"
            self = .content(.ok, headers, range: size > 0 ? 0...(size - 1) : nil)
        case .partial(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
            headers[.contentLength] = "\(bytes.count)"
            self = .content(.partialContent, headers, range: bytes)
        case .unsatisfiable:
            self = .unsatisfiable
        }
    }
}
