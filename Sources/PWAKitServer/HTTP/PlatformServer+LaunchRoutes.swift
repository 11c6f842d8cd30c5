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
            try await asAppBackend(request, context: context, throttle: "exchange", doing: "exchanges") { credential in
                let body = try await RequestReader.json(
                    LaunchExchangeRequest.self, from: request, limit: configuration.maximumJSONBody)
                return try JSONResponse.make(try await launch.exchange(code: body.code, credential: credential))
            }
        }
        table.add(.get, "/v1/launch/keys") { _, _ in
            try JSONResponse.make(tokens.jwks, headers: [.cacheControl: "public, max-age=300"])
        }
    }
}

extension PlatformServer {
    /// Runs `body` for the app a backend's Basic credential authenticates. An attempt is reserved
    /// under `throttle:` and the caller's address before the credential's hash is checked, and only a
    /// call whose `body` succeeds takes it back: wrong credentials and failed calls (`doing` names
    /// them in the 429) count alike, parallel ones too.
    func asAppBackend(
        _ request: Request, context: ServerRequestContext, throttle: String, doing: String,
        _ body: (AppCredentialRecord) async throws -> Response
    ) async throws -> Response {
        guard let presented = RequestReader.basicCredentials(request) else {
            throw APIError(
                .unauthorized, .unauthorized, "a valid app credential is required", headers: [.wwwAuthenticate: "Basic"])
        }
        let key = throttle + ":" + clientAddress(request, context: context)
        let now = environment.now()
        guard
            try await storage.reserveAttempt(
                [ThrottleKey(key, limit: configuration.exchangeFailureLimit)],
                since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
        else {
            throw APIError(
                .tooManyRequests, .tooManyAttempts, "too many failed \(doing) from this address; try again later",
                headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
        }
        let credential = try await catalog.authenticateBackend(id: presented.id, secret: presented.secret)
        let response = try await body(credential)
        try await storage.releaseAttempt(key: key, at: now)
        return response
    }
}
