import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles

/// Single sign-on into mini-apps: single-use launch codes and offline-verifiable launch tokens.
struct LaunchService: Sendable {
    let storage: any ServerStorage
    let tokens: TokenService
    let releases: ReleaseService
    let catalog: CatalogService
    let environment: ServerEnvironment
    let configuration: ServerConfiguration

    /// Issues a code bound to (user, app, bundle hash), valid for ``ServerConfiguration/launchCodeLifetime``.
    func issue(userId: String, _ request: LaunchCodeRequest) async throws -> LaunchCodeResponse {
        try Validation.appId(request.appId, field: "appId")
        try Validation.sha256(request.bundleHash, field: "bundleHash")
        guard let user = try await storage.user(id: userId) else { throw APIError.unauthorized() }
        _ = try await releases.release(appId: request.appId, bundleHash: request.bundleHash)
        let now = environment.now()
        guard
            try await storage.reserveAttempt(
                [ThrottleKey("launch:" + user.id, limit: configuration.launchCodeLimit)],
                since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
        else {
            throw APIError(
                .tooManyRequests, .tooManyAttempts, "too many launch codes; try again later",
                headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
        }
        let code = environment.token()
        let expiresAt = now.addingTimeInterval(configuration.launchCodeLifetime)
        try await storage.insertLaunchCode(
            LaunchCodeRecord(
                codeHash: SHA256.hex(of: Data(code.utf8)), userId: user.id, appId: request.appId, bundleHash: request.bundleHash,
                expiresAt: expiresAt))
        let launchToken = try await tokens.launchToken(
            user: user, appId: request.appId, bundleHash: request.bundleHash, nonce: environment.token(byteCount: 16), now: now)
        return LaunchCodeResponse(code: code, expiresAt: expiresAt, launchToken: launchToken)
    }

    /// Redeems a code once, for the app whose credential authenticated the call.
    func exchange(code: String, credential: AppCredentialRecord) async throws -> LaunchExchangeResponse {
        let invalid = APIError(
            .badRequest, .invalidLaunchCode, "the launch code is invalid, used, expired or for another app", field: "code")
        guard !code.isEmpty, code.utf8.count <= 128 else { throw invalid }
        guard
            let record = try await storage.redeemLaunchCode(
                codeHash: SHA256.hex(of: Data(code.utf8)), appId: credential.appId, now: environment.now()),
            let user = try await storage.user(id: record.userId)
        else { throw invalid }
        return LaunchExchangeResponse(
            user: .init(id: user.id, email: user.email, emailVerified: false, displayName: user.displayName), appId: record.appId,
            bundleHash: record.bundleHash)
    }
}
