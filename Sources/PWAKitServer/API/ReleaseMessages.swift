import Foundation
import HTTPTypes

struct MissingBlobsRequest: Decodable {
    var sha256: [String]
}

struct MissingBlobsResponse: Codable {
    var missing: [String]
}

struct BlobPutResponse: Codable {
    var sha256: String
    var size: Int
    var created: Bool
}

struct PublishReleaseRequest: Decodable {
    var manifest: String
    var keyId: String
    var signature: String
    var rolloutPercent: Int?
}

struct ReleaseResponse: Codable, Equatable {
    var appId: String
    var channel: String
    var version: String
    var bundleHash: String
    var rolloutPercent: Int
    /// Standard base64 of the exact manifest bytes as signed.
    var manifest: String
    var keyId: String
    var signature: String
    /// Where each blob can be fetched: `blobBaseURL + sha256`.
    var blobBaseURL: String

    init(_ release: ReleaseRecord) {
        appId = release.appId
        channel = release.channel
        version = release.version
        bundleHash = release.bundleHash
        rolloutPercent = release.rolloutPercent
        manifest = release.manifest.base64EncodedString()
        keyId = release.keyId
        signature = release.signature
        blobBaseURL = "/v1/blobs/"
    }
}

struct LatestReleaseResponse: Codable {
    var upToDate: Bool
    var release: ReleaseResponse?
}

struct RolloutRequest: Decodable {
    var rolloutPercent: Int
}
