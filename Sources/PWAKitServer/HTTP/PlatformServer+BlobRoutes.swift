import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI
import PWAKitBundles

extension PlatformServer {
    func addBlobRoutes(to table: RouteTable) {
        table.add(.post, "/v1/blobs/missing") { request, _ in
            _ = try await requirePublisher(request, appId: nil)
            let body = try await RequestReader.json(MissingBlobsRequest.self, from: request, limit: 2 * 1024 * 1024)
            guard body.sha256.count <= ManifestCoding.maximumFileCount else {
                throw APIError.invalid("sha256", "must list at most \(ManifestCoding.maximumFileCount) hashes")
            }
            var missing: [String] = []
            for (index, hash) in body.sha256.enumerated() {
                try Validation.sha256(hash, field: "sha256[\(index)]")
                if try await blobs.size(of: hash) == nil, !missing.contains(hash) { missing.append(hash) }
            }
            return try JSONResponse.make(MissingBlobsResponse(missing: missing))
        }
        table.add(.put, "/v1/blobs/{sha256}") { request, context in
            _ = try await requirePublisher(request, appId: nil)
            let hash = try context.parameters.require("sha256")
            try Validation.sha256(hash, field: "sha256")
            if let declared = request.headers[.contentLength].flatMap(Int.init), declared > configuration.maximumBlobSize {
                throw APIError(
                    .contentTooLarge, .payloadTooLarge, "a blob must be at most \(configuration.maximumBlobSize) bytes",
                    field: "body")
            }
            do {
                let created = try await blobs.put(hash: hash, body: request.body, maximumSize: configuration.maximumBlobSize)
                let size = try await blobs.size(of: hash) ?? 0
                return try JSONResponse.make(
                    BlobPutResponse(sha256: hash, size: size, created: created), status: created ? .created : .ok)
            } catch let error as BlobStoreError {
                switch error.reason {
                case .tooLarge:
                    throw APIError(
                        .contentTooLarge, .payloadTooLarge, "a blob must be at most \(configuration.maximumBlobSize) bytes",
                        field: "body")
                default:
                    throw APIError(
                        .unprocessableContent, .hashMismatch, "the uploaded bytes do not hash to \(hash)", field: "body")
                }
            }
        }
        table.add(.get, "/v1/blobs/{sha256}") { request, context in
            try await serveBlob(request, context: context, includeBody: true)
        }
        table.add(.head, "/v1/blobs/{sha256}") { request, context in
            try await serveBlob(request, context: context, includeBody: false)
        }
    }

    /// Serves a blob immutable, with a strong ETag, conditional GET and single byte ranges.
    func serveBlob(_ request: Request, context: ServerRequestContext, includeBody: Bool) async throws -> Response {
        let hash = try context.parameters.require("sha256")
        try Validation.sha256(hash, field: "sha256")
        guard let size = try await blobs.size(of: hash) else { throw APIError.notFound("blob \(hash)") }
        let answer = BlobAnswer(hash: hash, size: size, request: request.headers)
        let headers = answer.headers(hash: hash, size: size)
        switch answer {
        case .notModified:
            return Response(status: .notModified, headers: headers)
        case .unsatisfiable:
            throw APIError(
                .rangeNotSatisfiable, .rangeNotSatisfiable, "the range selects no bytes of a \(size)-byte blob", field: "Range",
                headers: [.contentRange: "bytes */\(size)"])
        case .whole, .partial:
            let status: HTTPResponse.Status = answer == .whole ? .ok : .partialContent
            guard includeBody, let range = answer.bodyRange(size: size) else { return Response(status: status, headers: headers) }
            return Response(
                status: status, headers: headers, body: try await blobs.body(hash: hash, range: range, context: context))
        }
    }
}
