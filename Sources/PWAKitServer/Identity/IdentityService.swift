import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles

/// Registration, login with throttling, refresh-token rotation with reuse detection, logout.
struct IdentityService: Sendable {
    let storage: any ServerStorage
    let tokens: TokenService
    let environment: ServerEnvironment
    let configuration: ServerConfiguration
    let hasher: PasswordHasher
    /// A hash of a random password, verified against when an account does not exist so both answers take as long.
    let decoyHash: String

    init(storage: any ServerStorage, tokens: TokenService, environment: ServerEnvironment, configuration: ServerConfiguration)
        throws
    {
        self.storage = storage
        self.tokens = tokens
        self.environment = environment
        self.configuration = configuration
        self.hasher = PasswordHasher(
            parameters: configuration.passwordHashing,
            pool: HashingPool(limit: configuration.hashingQueueLimit, threads: configuration.hashingThreads))
        self.decoyHash = try hasher.hash(environment.token(), salt: environment.randomBytes(16))
    }

    /// Creates an account unless the email is taken; the answer is the same either way, so registration
    /// never reveals whether an account exists. The client signs in next.
    func register(_ request: RegisterRequest, address: String) async throws -> RegistrationResponse {
        let email = try Validation.email(request.email, field: "email")
        try Validation.password(request.password, field: "password")
        let now = environment.now()
        guard
            try await storage.reserveAttempt(
                [ThrottleKey("register:" + address, limit: configuration.registrationLimit)],
                since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
        else { throw tooManyAttempts("too many registrations from this address; try again later") }
        let displayName =
            try request.displayName.map { try Validation.displayName($0, field: "displayName") }
            ?? String(email.split(separator: "@").first ?? "")
        // NB: a taken email still costs one password hash, so both answers take as long.
        _ = try await createUser(email: email, password: request.password, displayName: displayName, role: .user)
        return RegistrationResponse()
    }

    /// Creates a user; `nil` when the email is taken.
    func createUser(email: String, password: String, displayName: String, role: UserRole) async throws -> UserRecord? {
        let id = environment.identifier()
        let passwordHash = try await hasher.hashOffLoop(password, salt: environment.randomBytes(16))
        let user = UserRecord(
            id: id, email: email, displayName: displayName, passwordHash: passwordHash, role: role,
            createdAt: environment.now()
        )
        return try await storage.insertUser(user) ? user : nil
    }

    /// Signs in. The attempt is reserved under its throttles before the password is checked, so a
    /// burst of parallel guesses is judged no more often than the limits allow; a success takes its
    /// reservation back.
    func login(_ request: LoginRequest, address: String) async throws -> TokenPairResponse {
        let email = Validation.normalizedEmail(request.email)
        let now = environment.now()
        let since = now.addingTimeInterval(-configuration.throttleWindow)
        let pairKey = "pair:\(email)|\(address)"
        let accountKey = "account:" + email
        let addressKey = "address:" + address
        let knownKey = "known:\(email)|\(address)"
        let known =
            try await storage.loginFailureCount(
                key: knownKey, since: now.addingTimeInterval(-configuration.knownAddressLifetime), until: now) > 0
        var throttles = [
            ThrottleKey(pairKey, limit: configuration.pairFailureLimit),
            ThrottleKey(addressKey, limit: configuration.addressFailureLimit),
        ]
        if !known { throttles.append(ThrottleKey(accountKey, limit: configuration.accountFailureLimit)) }
        guard try await storage.reserveAttempt(throttles, since: since, now: now) else {
            throw tooManyAttempts("too many failed logins; try again later")
        }
        let user = email.utf8.count <= 254 ? try await storage.user(email: email) : nil
        let passwordMatches =
            request.password.utf8.count <= Validation.maximumPasswordBytes
            ? try await hasher.verifyOffLoop(request.password, encoded: user?.passwordHash ?? decoyHash) : false
        guard let user, passwordMatches else {
            // The reservation stands as the failure.
            throw APIError(.unauthorized, .invalidCredentials, "email or password is wrong")
        }
        try await storage.clearLoginFailures(key: pairKey)
        for throttle in throttles where throttle.key != pairKey {
            try await storage.releaseAttempt(key: throttle.key, at: now)
        }
        try await storage.recordLoginFailure(key: knownKey, at: now)
        if hasher.needsRehash(user.passwordHash) {
            // NB: hashes made at an older cost are upgraded as their owners sign in; a failure here is not the login's.
            if let upgraded = try? await hasher.hashOffLoop(request.password, salt: environment.randomBytes(16)) {
                _ = try? await storage.updatePasswordHash(userId: user.id, from: user.passwordHash, to: upgraded)
            }
        }
        return try await issueTokens(for: user, familyId: nil)
    }

    func tooManyAttempts(_ message: String) -> APIError {
        APIError(
            .tooManyRequests, .tooManyAttempts, message, headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
    }

    /// Rotates a refresh token: the next token of its family is stored before the presented one is used
    /// up, so a crash between the two never leaves a used token without a successor. A retry from the same
    /// address within ``ServerConfiguration/refreshReuseGrace`` is answered again; any other reuse revokes
    /// the family.
    func refresh(_ request: RefreshRequest, address: String) async throws -> TokenPairResponse {
        let hash = SHA256.hex(of: Data(request.refreshToken.utf8))
        let now = environment.now()
        let successor = environment.token()
        switch try await storage.rotateRefreshToken(
            tokenHash: hash, successor: SHA256.hex(of: Data(successor.utf8)),
            expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime), now: now, address: address,
            grace: configuration.refreshReuseGrace)
        {
        case .rotated(let familyId, let userId), .retried(let familyId, let userId):
            // NB: a session bound to a device ends with the device, however it raced its revocation.
            guard let user = try await storage.user(id: userId), try await storage.refreshFamilyIsActive(familyId: familyId)
            else {
                throw APIError(.unauthorized, .invalidRefreshToken, "the refresh token is invalid", field: "refreshToken")
            }
            let accessToken = try await tokens.accessToken(for: user, session: familyId, now: now)
            return TokenPairResponse(
                accessToken: accessToken, refreshToken: successor, tokenType: "Bearer",
                expiresIn: Int(configuration.accessTokenLifetime), user: UserResponse(user))
        case .reused:
            throw APIError(
                .unauthorized, .refreshTokenReused,
                "the refresh token was already used; every session it belonged to is signed out",
                field: "refreshToken")
        case .expired, .unknown, .retryOvertaken:
            // NB: one answer for all three: a retry overtaken by another is not told apart from a bad token.
            throw APIError(.unauthorized, .invalidRefreshToken, "the refresh token is invalid or expired", field: "refreshToken")
        }
    }

    /// Revokes the family of a refresh token owned by `userId`; other users' tokens are left alone.
    func logout(refreshToken: String, userId: String) async throws {
        let hash = SHA256.hex(of: Data(refreshToken.utf8))
        guard let owner = try await storage.refreshTokenOwner(tokenHash: hash), owner.userId == userId else { return }
        try await storage.revokeRefreshFamily(familyId: owner.familyId, now: environment.now())
    }

    /// A new token pair for `user` in a new session (or `familyId`'s), bound to an enrolled device when
    /// `deviceId` is given: revoking the device ends the session.
    func issueTokens(for user: UserRecord, familyId: String?, deviceId: String? = nil) async throws -> TokenPairResponse {
        let now = environment.now()
        let refreshToken = environment.token()
        let session = familyId ?? environment.identifier()
        try await storage.insertRefreshToken(
            tokenHash: SHA256.hex(of: Data(refreshToken.utf8)), familyId: session, userId: user.id,
            issuedAt: now, expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime), newFamily: familyId == nil,
            deviceId: deviceId
        )
        let accessToken = try await tokens.accessToken(for: user, session: session, now: now)
        return TokenPairResponse(
            accessToken: accessToken, refreshToken: refreshToken, tokenType: "Bearer",
            expiresIn: Int(configuration.accessTokenLifetime), user: UserResponse(user)
        )
    }
}
