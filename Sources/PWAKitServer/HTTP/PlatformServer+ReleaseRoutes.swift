import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PWAKitAPI

extension PlatformServer {
    func addReleaseRoutes(to table: RouteTable) {
        table.add(.post, "/v1/apps/{appId}/releases") { request, context in
            _ = try await requirePublisher(request, appId: try context.parameters.require("appId"))
            let body = try await RequestReader.json(
                PublishReleaseRequest.self, from: request, limit: configuration.maximumReleaseBody)
            let release = try await releases.publish(appId: try context.parameters.require("appId"), body)
            return try JSONResponse.make(ReleaseResponse(release), status: .created)
        }
        table.add(.get, "/v1/apps/{appId}/releases/latest") { request, context in
            let caller = try await authenticate(request)
            let channel = request.uri.queryParameters.get("channel") ?? "stable"
            let current = request.uri.queryParameters.get("current")
            let latest = try await releases.latest(
                appId: try context.parameters.require("appId"), channel: channel, current: current, userId: caller.userId)
            return try JSONResponse.make(latest)
        }
        table.add(.get, "/v1/apps/{appId}/releases/{bundleHash}/manifest") { request, context in
            _ = try await authenticate(request)
            let release = try await releases.release(
                appId: try context.parameters.require("appId"), bundleHash: try context.parameters.require("bundleHash"))
            let headers: HTTPFields = [
                .contentType: "application/json", .eTag: "\"\(release.bundleHash)\"",
                .cacheControl: "private, max-age=31536000, immutable",
                .pwakitKeyId: release.keyId, .pwakitSignature: release.signature,
            ]
            // NB: the exact stored bytes, never re-encoded: the signature covers them.
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: release.manifest)))
        }
        table.add(.put, "/v1/apps/{appId}/channels/{channel}/releases/{version}/rollout") { request, context in
            _ = try await requirePublisher(request, appId: try context.parameters.require("appId"))
            let body = try await RequestReader.json(RolloutRequest.self, from: request, limit: configuration.maximumJSONBody)
            try await releases.setRollout(
                appId: try context.parameters.require("appId"), channel: try context.parameters.require("channel"),
                version: try context.parameters.require("version"), percent: body.rolloutPercent)
            return JSONResponse.noContent()
        }
    }
}

extension HTTPField.Name {
    /// The id of the key that signed a served manifest.
    static let pwakitKeyId = Self("PWAKit-Key-Id")!
    /// The base64 Ed25519 signature over a served manifest's exact bytes.
    static let pwakitSignature = Self("PWAKit-Signature")!
}
