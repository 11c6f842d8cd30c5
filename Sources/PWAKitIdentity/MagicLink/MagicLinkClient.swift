import Crypto
public import Foundation
public import PWAKitAPI
import PWAKitEncoding
public import PWAKitModules

/// Passwordless sign-in by email with PKCE, on the device: ``request(email:)`` keeps a random
/// verifier in secure storage and sends only its hash; ``complete(link:)`` sends the link's token
/// with the verifier. The link alone signs nobody in, and it works once.
public struct MagicLinkClient: Sendable {
    /// The platform server.
    public let api: APIClient
    /// Where the verifier waits for the link.
    public let store: any SecureStore
    /// Secure random bytes.
    public var randomBytes: @Sendable (Int) -> [UInt8]
    /// The current time.
    public var now: @Sendable () -> Date

    static let app = "pwakit.identity"
    static let item = "magic-link"

    /// What waits for the link.
    struct Pending: Codable {
        var email: String
        var verifier: String
        var requestedAt: Date
    }

    /// Creates a client.
    public init(
        api: APIClient, store: any SecureStore, randomBytes: @escaping @Sendable (Int) -> [UInt8] = PINVault.systemRandomBytes,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.api = api
        self.store = store
        self.randomBytes = randomBytes
        self.now = now
    }

    /// Asks for a link to `email`; a later request replaces the verifier of an earlier one.
    public func request(email: String) async throws {
        let verifier = Base64URL.encode(randomBytes(32))
        let challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
        let pending = Pending(email: email, verifier: verifier, requestedAt: now())
        try await store.set(
            String(decoding: try JSONEncoder.identity.encode(pending), as: UTF8.self), for: Self.item, app: Self.app)
        let _: MagicLinkRequestedResponse = try await api.call(
            "POST", "/v1/auth/magic-link",
            body: try APIClient.encode(MagicLinkRequest(email: email, codeChallenge: challenge)), idempotent: false)
    }

    /// The address a link was asked for, while one is awaited.
    public func awaitedEmail() async throws -> String? { try await pending()?.email }

    /// Signs in with a link from the mail (any URL whose query has one `token=`), on the device that
    /// asked. A link with more than one token is refused rather than one of them picked; a kept
    /// request that cannot be read is `identity.corrupt_store` naming `magic-link` (ask again).
    public func complete(link: String) async throws -> TokenPairResponse {
        let tokens = URLComponents(string: link.trimmingCharacters(in: .whitespacesAndNewlines))?.queryItems?
            .filter { $0.name == "token" }
        guard let tokens, let token = tokens.first?.value, !token.isEmpty else {
            throw IdentityError(.invalidCode, "this is not a sign-in link: it has no token", field: "link")
        }
        guard tokens.count == 1 else {
            throw IdentityError(
                .invalidCode, "this is not a sign-in link: it has \(tokens.count) tokens, and a link has one", field: "link")
        }
        guard let pending = try await pending() else {
            throw IdentityError(
                .invalidCode, "this device did not ask for a sign-in link; ask for one here first", field: "link")
        }
        let pair: TokenPairResponse = try await api.call(
            "POST", "/v1/auth/magic-link/token",
            body: try APIClient.encode(MagicLinkTokenRequest(token: token, codeVerifier: pending.verifier)),
            idempotent: false)
        _ = try await store.delete(Self.item, app: Self.app)
        return pair
    }

    /// The request this device keeps; `nil` when none; one that cannot be read is
    /// `identity.corrupt_store` (never taken for "this device did not ask"), left for the next
    /// ``request(email:)`` to replace.
    private func pending() async throws -> Pending? {
        guard let text = try await store.value(for: Self.item, app: Self.app) else { return nil }
        do {
            return try JSONDecoder.identity.decode(Pending.self, from: Data(text.utf8))
        } catch {
            throw IdentityError(
                .corruptStore, "the sign-in link request kept on this device cannot be read; ask for a new link",
                field: Self.item)
        }
    }
}
