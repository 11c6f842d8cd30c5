import Crypto
import Foundation
public import PWAKitAPI
import PWAKitEncoding

/// A computer's sign-in page, played natively for the showcase: what the server's page at
/// `GET /v1/identity/qr` does in the browser, over the same routes. It holds a P-256 key, asks
/// for a code bound to the key's hash, and redeems the code with a signature only that key can
/// make once the enrolled device approved it. (The real page, in a real browser, is tested
/// in headless Chromium; the server's page refuses to be framed, so the showcase cannot embed it.)
public struct SignInScreen: Sendable {
    /// The platform's API.
    public let api: APIClient
    private let key = P256.Signing.PrivateKey()

    /// A screen talking to `api`.
    public init(api: APIClient) { self.api = api }

    /// The public key as WebCrypto exports it (`raw`: the uncompressed point).
    var publicKey: Data { key.publicKey.x963Representation }

    /// A new sign-in code for this screen's key.
    public func newCode() async throws -> QRSessionResponse {
        let keyHash = Base64URL.encode(SHA256.hash(data: publicKey))
        return try await api.call(
            "POST", "/v1/identity/qr/sessions", body: try APIClient.encode(CreateQRSessionRequest(keyHash: keyHash)),
            idempotent: false)
    }

    /// Redeems `session`: the tokens once the device approved it, nil while it waits.
    public func redeem(_ session: QRSessionResponse, wait: Int = 0) async throws -> TokenPairResponse? {
        let message = Data("PWAKIT-QR-REDEEM-V1\n\(session.id)\n\(session.nonce)".utf8)
        let signature = try key.signature(for: message).rawRepresentation
        let body = RedeemQRRequest(publicKey: Base64URL.encode(publicKey), signature: Base64URL.encode(signature))
        let id = try IdentityClient.segment(session.id)
        let response = try await api.exchange(
            "POST", "/v1/identity/qr/sessions/\(id)/redeem?wait=\(wait)", body: try APIClient.encode(body), idempotent: false)
        if response.status == 202 || response.status == 429 { return nil }
        try APIClient.requireSuccess(response)
        return try APIClient.decode(TokenPairResponse.self, from: response.body)
    }
}
