import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI

extension PlatformServer {
    func addIdentityRoutes(to table: RouteTable) {
        table.add(.post, "/v1/auth/register") { request, context in
            let body = try await RequestReader.json(RegisterRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(
                try await identity.register(body, address: clientAddress(request, context: context)), status: .accepted)
        }
        table.add(.post, "/v1/auth/login") { request, context in
            let body = try await RequestReader.json(LoginRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(try await identity.login(body, address: clientAddress(request, context: context)))
        }
        table.add(.post, "/v1/auth/refresh") { request, context in
            let body = try await RequestReader.json(RefreshRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(try await identity.refresh(body, address: clientAddress(request, context: context)))
        }
        table.add(.post, "/v1/auth/logout") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(RefreshRequest.self, from: request, limit: configuration.maximumJSONBody)
            try await identity.logout(refreshToken: body.refreshToken, userId: caller.userId)
            return JSONResponse.noContent()
        }
        table.add(.get, "/v1/me") { request, _ in
            let caller = try await authenticate(request)
            guard let user = try await storage.user(id: caller.userId) else { throw APIError.unauthorized() }
            return try JSONResponse.make(UserResponse(user))
        }
    }
}
