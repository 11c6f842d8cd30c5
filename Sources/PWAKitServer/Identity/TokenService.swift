import Crypto
import Foundation
import HTTPTypes
import JWTKit
import PWAKitAPI
import PWAKitBundles
import PWAKitEncoding

/// Signs and verifies the server's EdDSA tokens. The signing key lives in the database so every
/// replica signs and verifies with the same key.
struct TokenService: Sendable {
    static let hostAudience = "pwakit-host"

    let keys: JWTKeyCollection
    let keyId: String
    let publicKey: Curve25519.Signing.PublicKey
    let configuration: ServerConfiguration
    /// Tokens whose signature was verified; 10,000 of them take a few megabytes.
    let verified = VerifiedTokenCache(capacity: 10_000)

    static func load(storage: any ServerStorage, environment: ServerEnvironment, configuration: ServerConfiguration) async throws
        -> TokenService
    {
        let wrapping = configuration.keyWrappingKey.map { SymmetricKey(data: $0) }
        let raw = Curve25519.Signing.PrivateKey().rawRepresentation
        let candidate = try wrapping.map { try KeyWrapping.wrap(raw, with: $0) } ?? raw.base64EncodedString()
        let stored = try await storage.serverKey(purpose: Self.purpose, candidate: candidate, now: environment.now())
        let privateKey = try KeyWrapping.unwrapSigningKey(stored, with: wrapping)
        if let wrapping, !KeyWrapping.isWrapped(stored) {
            // NB: a key stored in the clear before a wrapping key was configured is wrapped in place, once.
            _ = try await storage.replaceServerKey(
                purpose: Self.purpose, from: stored, to: try KeyWrapping.wrap(privateKey.rawRepresentation, with: wrapping))
        }
        let keyId = VerifyingKey(publicKey: privateKey.publicKey).keyId
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: privateKey), kid: JWKIdentifier(string: keyId))
        return TokenService(keys: keys, keyId: keyId, publicKey: privateKey.publicKey, configuration: configuration)
    }

    static let purpose = "token-signing"

    func accessToken(for user: UserRecord, session: String, now: Date) async throws -> String {
        let now = Self.wholeSeconds(now)
        let claims = AccessClaims(
            sub: .init(value: user.id), iss: .init(value: configuration.issuer), aud: .init(value: [Self.hostAudience]),
            iat: .init(value: now), exp: .init(value: now.addingTimeInterval(configuration.accessTokenLifetime)),
            role: user.role.rawValue, sid: session
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyId))
    }

    /// Verifies signature, issuer, audience and expiry; any failure is the same 401.
    func verifyAccessToken(_ token: String, now: Date) throws -> AccessClaims {
        let cached = verified.claims(of: token)
        guard
            let claims = cached
                ?? (token.utf8.count <= 4096 ? EdDSAToken.verifiedPayload(token, key: publicKey, as: AccessClaims.self) : nil)
        else {
            throw APIError.unauthorized("the access token is invalid")
        }
        guard claims.iss.value == configuration.issuer, claims.aud.value.contains(Self.hostAudience) else {
            throw APIError.unauthorized("the access token is invalid")
        }
        guard now < claims.exp.value else { throw APIError.unauthorized("the access token has expired") }
        if cached == nil { verified.insert(claims, of: token, now: now) }
        return claims
    }

    func launchToken(user: UserRecord, appId: String, bundleHash: String, nonce: String, now: Date) async throws -> String {
        let now = Self.wholeSeconds(now)
        let claims = LaunchClaims(
            sub: .init(value: user.id), iss: .init(value: configuration.issuer), aud: .init(value: [appId]),
            iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(configuration.launchCodeLifetime)), nonce: nonce, bundle: bundleHash,
            email: user.email, email_verified: false, name: user.displayName
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyId))
    }

    /// The server's statement that `transaction` was approved with `authenticator`, for its requester.
    func approvalAssertion(_ transaction: IdentityTransactionRecord, authenticator: String, now: Date) async throws -> String {
        let claims = ApprovalClaims(
            sub: .init(value: transaction.userId), iss: .init(value: configuration.issuer),
            aud: .init(value: [transaction.appId]), iat: .init(value: Self.wholeSeconds(now)),
            exp: .init(value: Self.wholeSeconds(now).addingTimeInterval(300)), typ: "mobile-auth-approval", txn: transaction.id,
            nonce: transaction.nonce, decision: "approve", amr: [authenticator],
            ctx: IdentityStatement.contextHash(message: transaction.message, data: transaction.data))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyId))
    }

    /// `iat` and `exp` in whole seconds: RFC 7519 allows fractions, but several JWT libraries reject them.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// The public key as a JSON Web Key Set, for mini-app backends that verify launch tokens offline.
    var jwks: JWKSDocument {
        JWKSDocument(keys: [
            .init(
                kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", kid: keyId, x: Base64URL.encode(publicKey.rawRepresentation)
            )
        ])
    }
}

/// A JSON Web Key Set with Ed25519 keys.
struct JWKSDocument: Codable, Sendable {
    struct Key: Codable, Sendable {
        var kty: String
        var crv: String
        var alg: String
        var use: String
        var kid: String
        var x: String
    }
    var keys: [Key]
}
