import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles
import PWAKitEncoding

/// Passwordless sign-in by email with PKCE (RFC 7636): the device that asks keeps a random
/// verifier and sends its SHA-256; the link mailed to the address carries a single-use token that
/// signs in only together with that verifier, within ``ServerConfiguration/magicLinkLifetime``.
struct MagicLinkService: Sendable {
    let storage: any ServerStorage
    let environment: ServerEnvironment
    let configuration: ServerConfiguration
    let identity: IdentityService
    let outbox: MailOutbox?
    /// Wrong verifiers one link survives.
    static let failureLimit = 5

    init(
        storage: any ServerStorage, environment: ServerEnvironment, configuration: ServerConfiguration, identity: IdentityService
    ) {
        self.storage = storage
        self.environment = environment
        self.configuration = configuration
        self.identity = identity
        self.outbox = configuration.mailer.map { MailOutbox(sender: $0) }
    }

    /// Queues a link for the address when it has an account. The request path only checks the input,
    /// the throttles and that mail can be sent; the account is looked up and the link stored by the
    /// mail worker, so the answer and the time it takes are the same whether or not the address has
    /// an account. Throttled per address asked for and per client address.
    func request(_ request: MagicLinkRequest, address: String) async throws -> MagicLinkRequestedResponse {
        let email = try Validation.email(request.email, field: "email")
        guard request.codeChallengeMethod == "S256" else { throw APIError.invalid("codeChallengeMethod", "must be S256") }
        guard request.codeChallenge.utf8.count == 43, let challenge = Base64URL.decode(request.codeChallenge),
            challenge.count == 32
        else {
            throw APIError.invalid("codeChallenge", "must be base64url(SHA-256(verifier)): 43 characters")
        }
        guard let outbox else {
            throw APIError(.serviceUnavailable, .mailUnavailable, "this server sends no mail; sign in with a password")
        }
        // NB: links are never built from a request's headers, which its sender controls.
        guard let base = configuration.magicLinkBase ?? configuration.publicOrigin.map({ $0 + "/v1/auth/magic-link/open" })
        else {
            throw APIError(
                .serviceUnavailable, .mailUnavailable,
                "this server has no public URL to put in sign-in links (pwakit server --public-url)")
        }
        let now = environment.now()
        guard
            try await storage.reserveAttempt(
                [
                    ThrottleKey("magic-email:" + email, limit: configuration.magicLinkEmailLimit),
                    ThrottleKey("magic-address:" + address, limit: configuration.magicLinkAddressLimit),
                ], since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
        else {
            throw APIError(
                .tooManyRequests, .tooManyAttempts, "too many sign-in links asked for; try again later",
                headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
        }
        let service = self
        let codeChallenge = request.codeChallenge
        guard await outbox.enqueue({ try await service.makeLink(email: email, challenge: codeChallenge, base: base) }) else {
            throw APIError(.serviceUnavailable, .busy, "too much mail is waiting; try again in a minute")
        }
        return MagicLinkRequestedResponse()
    }

    /// Stores a link for the account of `email` and writes its mail; nil when no account has the address.
    func makeLink(email: String, challenge: String, base: String) async throws -> MailMessage? {
        guard let user = try await storage.user(email: email) else { return nil }
        let token = environment.token()
        let now = environment.now()
        try await storage.insertMagicLink(
            MagicLinkRecord(
                tokenHash: SHA256.hex(of: Data(token.utf8)), userId: user.id, challenge: challenge, createdAt: now,
                expiresAt: now.addingTimeInterval(configuration.magicLinkLifetime)))
        let link = base + (base.contains("?") ? "&" : "?") + "token=" + token
        let minutes = Int(configuration.magicLinkLifetime / 60)
        return MailMessage(
            from: configuration.mailFrom, to: user.email, subject: "Your sign-in link",
            text: """
                Hello \(user.displayName),

                Open this link on the device where you asked to sign in:

                \(link)

                It works once, for \(minutes) minutes, and only in the app that asked for it.
                If you did not ask to sign in, ignore this message; nobody can use the link without that app.

                """)
    }

    /// Exchanges a link's token and the asking device's verifier for a token pair, once.
    func exchange(_ request: MagicLinkTokenRequest) async throws -> TokenPairResponse {
        let invalid = APIError(
            .unauthorized, .invalidMagicLink, "the sign-in link is invalid, expired or used; ask for a new one")
        guard (43...128).contains(request.codeVerifier.utf8.count),
            request.codeVerifier.utf8.allSatisfy({
                DeviceProof.isTokenByte($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "~")
            })
        else {
            throw APIError.invalid("codeVerifier", "must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
        }
        guard request.token.utf8.count <= 128 else { throw invalid }
        let hash = SHA256.hex(of: Data(request.token.utf8))
        let now = environment.now()
        guard let link = try await storage.magicLink(tokenHash: hash), link.usedAt == nil, link.expiresAt > now,
            link.failures < Self.failureLimit
        else {
            throw invalid
        }
        let presented = Base64URL.encode(SHA256.hash(data: Data(request.codeVerifier.utf8)))
        guard PasswordHasher.constantTimeEqual(Array(presented.utf8), Array(link.challenge.utf8)) else {
            try await storage.countMagicLinkFailure(tokenHash: hash)
            throw APIError(
                .unauthorized, .invalidMagicLink,
                "this link was asked for by another device; open it on the device that asked", field: "codeVerifier")
        }
        guard try await storage.useMagicLink(tokenHash: hash, failureLimit: Self.failureLimit, now: now),
            let user = try await storage.user(id: link.userId)
        else {
            throw invalid
        }
        return try await identity.issueTokens(for: user, familyId: nil)
    }
}
