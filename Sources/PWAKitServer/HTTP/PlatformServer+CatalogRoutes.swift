import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI

extension PlatformServer {
    func addCatalogRoutes(to table: RouteTable) {
        table.add(.get, "/v1/apps") { request, _ in
            let revision = try await authenticateForCatalog(request)
            let (body, etag) = try await catalog.listBody(revision: revision)
            let headers: HTTPFields = [.eTag: etag, .cacheControl: "private, no-cache"]
            if let condition = request.headers[.ifNoneMatch],
                condition.split(separator: ",").contains(where: { ["*", etag].contains($0.trimmingCharacters(in: .whitespaces)) })
            {
                return Response(status: .notModified, headers: headers)
            }
            return JSONResponse.make(encoded: body, headers: headers)
        }
        table.add(.post, "/v1/apps") { request, _ in
            _ = try await requireAdmin(request)
            let body = try await RequestReader.json(CreateAppRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(AppResponse(try await catalog.create(body)), status: .created)
        }
        table.add(.get, "/v1/apps/{appId}") { request, context in
            _ = try await authenticate(request)
            return try JSONResponse.make(AppResponse(try await catalog.app(try context.parameters.require("appId"))))
        }
        table.add(.get, "/v1/apps/{appId}/keys") { request, context in
            _ = try await requireAdmin(request)
            let keys = try await catalog.publisherKeys(appId: try context.parameters.require("appId"))
            return try JSONResponse.make(
                PublisherKeyListResponse(keys: keys.map { .init(appId: $0.appId, keyId: $0.keyId, publicKey: $0.publicKey) }))
        }
        table.add(.post, "/v1/apps/{appId}/keys") { request, context in
            _ = try await requireAdmin(request)
            let body = try await RequestReader.json(
                AddPublisherKeyRequest.self, from: request, limit: configuration.maximumJSONBody)
            let key = try await catalog.addPublisherKey(appId: try context.parameters.require("appId"), body)
            return try JSONResponse.make(
                PublisherKeyResponse(appId: key.appId, keyId: key.keyId, publicKey: key.publicKey), status: .created)
        }
        table.add(.post, "/v1/apps/{appId}/credentials") { request, context in
            _ = try await requireAdmin(request)
            let (record, secret) = try await catalog.createCredential(appId: try context.parameters.require("appId"))
            return try JSONResponse.make(
                CredentialResponse(appId: record.appId, credentialId: record.credentialId, secret: secret), status: .created)
        }
    }
}
