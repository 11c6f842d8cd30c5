import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI

extension PlatformServer {
    func addLaunchRoutes(to table: RouteTable) {
        table.add(.post, "/v1/launch/codes") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(LaunchCodeRequest.self, from: request, limit: configuration.maximumJSONBody)
            return try JSONResponse.make(try await launch.issue(userId: caller.userId, body), status: .created)
        }
        table.add(.post, "/v1/launch/exchange") { request, context in
            guard let presented = RequestReader.basicCredentials(request) else {
                throw APIError(
                    .unauthorized, .unauthorized, "a valid app credential is required", headers: [.wwwAuthenticate: "Basic"])
            }
            // Reserved before the credential's hash is checked; a success takes it back.
            let key = "exchange:" + clientAddress(request, context: context)
            let now = environment.now()
            guard
                try await storage.reserveAttempt(
                    [ThrottleKey(key, limit: configuration.exchangeFailureLimit)],
                    since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
            else {
                throw APIError(
                    .tooManyRequests, .tooManyAttempts, "too many failed exchanges from this address; try again later",
                    headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
            }
            let credential = try await catalog.authenticateBackend(id: presented.id, secret: presented.secret)
            let body = try await RequestReader.json(
                LaunchExchangeRequest.self, from: request, limit: configuration.maximumJSONBody)
            let answer = try await launch.exchange(code: body.code, credential: credential)
            try await storage.releaseAttempt(key: key, at: now)
            return try JSONResponse.make(answer)
        }
        table.add(.get, "/v1/launch/keys") { _, _ in
            try JSONResponse.make(tokens.jwks, headers: [.cacheControl: "public, max-age=300"])
        }
    }
}
