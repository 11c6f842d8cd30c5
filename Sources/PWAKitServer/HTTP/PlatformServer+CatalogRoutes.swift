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
            return try JSONResponse.make(PublisherKeyListResponse(keys: keys.map(PublisherKeyResponse.init)))
        }
        table.add(.post, "/v1/apps/{appId}/keys") { request, context in
            _ = try await requireAdmin(request)
            let body = try await RequestReader.json(
                AddPublisherKeyRequest.self, from: request, limit: configuration.maximumJSONBody)
            let key = try await catalog.addPublisherKey(appId: try context.parameters.require("appId"), body)
            return try JSONResponse.make(PublisherKeyResponse(key), status: .created)
        }
        table.add(.delete, "/v1/apps/{appId}/keys/{keyId}") { request, context in
            _ = try await requireAdmin(request)
            let withdraw = try Self.flag(request, "withdrawReleases")
            let (key, withdrawn) = try await catalog.revokePublisherKey(
                appId: try context.parameters.require("appId"), keyId: try context.parameters.require("keyId"),
                withdrawReleases: withdraw)
            return try JSONResponse.make(RevokePublisherKeyResponse(key: PublisherKeyResponse(key), withdrawnReleases: withdrawn))
        }
        table.add(.get, "/v1/apps/{appId}/credentials") { request, context in
            _ = try await requireAdmin(request)
            let credentials = try await catalog.credentials(appId: try context.parameters.require("appId"))
            return try JSONResponse.make(CredentialListResponse(credentials: credentials.map(CredentialInfoResponse.init)))
        }
        table.add(.delete, "/v1/apps/{appId}/credentials/{credentialId}") { request, context in
            _ = try await requireAdmin(request)
            let record = try await catalog.revokeCredential(
                appId: try context.parameters.require("appId"), credentialId: try context.parameters.require("credentialId"))
            return try JSONResponse.make(CredentialInfoResponse(record))
        }
        table.add(.get, "/v1/apps/{appId}/publishers") { request, context in
            _ = try await requireAdmin(request)
            let publishers = try await catalog.publishers(appId: try context.parameters.require("appId"))
            return try JSONResponse.make(PublisherListResponse(publishers: publishers.map(PublisherResponse.init)))
        }
        table.add(.post, "/v1/apps/{appId}/publishers") { request, context in
            _ = try await requireAdmin(request)
            let body = try await RequestReader.json(
                GrantPublisherRequest.self, from: request, limit: configuration.maximumJSONBody)
            let (record, created) = try await catalog.grantPublisher(
                appId: try context.parameters.require("appId"), email: body.email)
            return try JSONResponse.make(PublisherResponse(record), status: created ? .created : .ok)
        }
        table.add(.delete, "/v1/apps/{appId}/publishers/{userId}") { request, context in
            _ = try await requireAdmin(request)
            try await catalog.revokePublisher(
                appId: try context.parameters.require("appId"), userId: try context.parameters.require("userId"))
            return JSONResponse.noContent()
        }
        table.add(.post, "/v1/apps/{appId}/credentials") { request, context in
            _ = try await requireAdmin(request)
            let (record, secret) = try await catalog.createCredential(appId: try context.parameters.require("appId"))
            return try JSONResponse.make(
                CredentialResponse(appId: record.appId, credentialId: record.credentialId, secret: secret), status: .created)
        }
    }

    /// A boolean query parameter: absent or `false` is false, `true` is true, anything else is a 400 naming it.
    static func flag(_ request: Request, _ name: String) throws -> Bool {
        switch request.uri.queryParameters.get(name) {
        case nil, "false": return false
        case "true": return true
        default: throw APIError.invalid(name, "must be true or false")
        }
    }
}

extension PublisherKeyResponse {
    init(_ key: PublisherKeyRecord) {
        self.init(appId: key.appId, keyId: key.keyId, publicKey: key.publicKey, addedAt: key.addedAt, revokedAt: key.revokedAt)
    }
}

extension CredentialInfoResponse {
    init(_ record: AppCredentialRecord) {
        self.init(
            appId: record.appId, credentialId: record.credentialId, createdAt: record.createdAt, revokedAt: record.revokedAt)
    }
}

extension PublisherResponse {
    init(_ record: AppPublisherRecord) {
        self.init(appId: record.appId, userId: record.userId, email: record.email, grantedAt: record.grantedAt)
    }
}
