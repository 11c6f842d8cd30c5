import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles
import PWAKitEncoding
import Synchronization

/// Sign-in by QR code: a page makes an ephemeral P-256 key and asks for a code bound to its hash;
/// the person scans it with an enrolled device and approves with an authenticator; only a
/// redemption signed with that key receives the tokens, once.
struct QRSignInService: Sendable {
    let storage: any ServerStorage
    let environment: ServerEnvironment
    let configuration: ServerConfiguration
    let mobile: MobileIdentityService
    /// Redemptions waiting for an answer now, across the server.
    let waiting = WaitCount()

    /// Counts waiting redemptions: at most ``ServerConfiguration/qrRedeemWaitLimit`` across the server
    /// and two per code, so one holder of a code's key cannot take every place.
    final class WaitCount: Sendable {
        private let state = Mutex((total: 0, perCode: [String: Int]()))
        static let perCode = 2

        /// Takes a place for `code` when both counts allow.
        func enter(code: String, limit: Int) -> Bool {
            state.withLock { state in
                guard state.total < limit, state.perCode[code, default: 0] < Self.perCode else { return false }
                state.total += 1
                state.perCode[code, default: 0] += 1
                return true
            }
        }

        /// Gives a place back.
        func leave(code: String) {
            state.withLock { state in
                state.total -= 1
                let left = state.perCode[code, default: 1] - 1
                state.perCode[code] = left > 0 ? left : nil
            }
        }
    }

    /// A new code for a page whose key hashes to `keyHash`.
    func create(_ request: CreateQRSessionRequest, origin: String, address: String, agent: String) async throws
        -> QRSessionResponse
    {
        guard request.keyHash.utf8.count == 43, let hash = Base64URL.decode(request.keyHash), hash.count == 32 else {
            throw APIError.invalid("keyHash", "must be the SHA-256 of the page's public key, base64url")
        }
        let now = environment.now()
        guard
            try await storage.reserveAttempt(
                [ThrottleKey("qr:" + address, limit: configuration.qrCodeLimit)],
                since: now.addingTimeInterval(-configuration.throttleWindow), now: now)
        else {
            throw APIError(
                .tooManyRequests, .tooManyAttempts, "too many sign-in codes from this address; try again later",
                headers: [.retryAfter: "\(Int(configuration.throttleWindow))"])
        }
        let session = QRSessionRecord(
            id: environment.identifier(), keyHash: request.keyHash, nonce: environment.token(byteCount: 16), origin: origin,
            requesterAddress: address, requesterAgent: agent, createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.qrCodeLifetime))
        try await storage.insertQRSession(session)
        let payload = QRSignInPayload(origin: origin, session: session.id, keyHash: session.keyHash, nonce: session.nonce)
        guard let code = try? QRCode(Array(payload.text.utf8)) else {
            throw APIError.invalid("Origin", "is too long for a sign-in code")
        }
        return QRSessionResponse(
            id: session.id, nonce: session.nonce, expiresAt: session.expiresAt, payload: payload.text, svg: code.svg())
    }

    /// A pending, unexpired session, for a device to show and answer.
    func pending(id: String) async throws -> QRSessionRecord {
        guard id.utf8.count <= 64, let session = try await storage.qrSession(id: id) else {
            throw APIError.notFound("sign-in code")
        }
        guard session.status == "pending", session.expiresAt > environment.now() else {
            throw APIError(.conflict, .transactionClosed, "this sign-in code has expired or was already answered")
        }
        return session
    }

    /// The device's answer: the scanned key hash and nonce must be the session's; an approval is
    /// signed by an authenticator (a PIN signature is a counted attempt).
    func answer(_ request: AnswerQRRequest, id: String, device: EnrolledDeviceRecord) async throws -> QRStatusResponse {
        var approval: (kind: AuthenticatorKind, signature: [UInt8])?
        if request.decision == .approve {
            guard let kind = request.authenticator else { throw APIError.invalid("authenticator", "is required to approve") }
            guard let signature = request.signature.flatMap(DeviceProofVerifier.signature) else {
                throw APIError.invalid("signature", "must be a 64-byte Ed25519 signature, base64url")
            }
            approval = (kind, signature)
        }
        let session = try await pending(id: id)
        guard request.keyHash == session.keyHash else {
            throw APIError.invalid("keyHash", "is not the one of this sign-in code; scan the code again")
        }
        guard request.nonce == session.nonce else {
            throw APIError.invalid("nonce", "is not the one of this sign-in code; scan the code again")
        }
        if let approval {
            let statement = IdentityStatement.qrApproval(
                session: id, nonce: session.nonce, keyHash: session.keyHash, origin: session.origin)
            try await mobile.checkAuthenticator(approval.kind, signature: approval.signature, input: statement, device: device)
        }
        guard
            try await storage.answerQRSession(
                id: id, approved: approval != nil, userId: device.userId, deviceId: device.id, now: environment.now())
        else {
            throw APIError(.conflict, .transactionClosed, "this sign-in code has expired or was already answered")
        }
        return QRStatusResponse(status: approval != nil ? "approved" : "denied")
    }

    /// What a redemption came to: the tokens, or still waiting.
    enum Redemption {
        case tokens(TokenPairResponse)
        case pending
    }

    /// Redeems an approved code for the page that holds the key; waits up to `wait` seconds for the
    /// person's answer first.
    func redeem(_ request: RedeemQRRequest, id: String, wait: Int) async throws -> Redemption {
        guard let raw = Base64URL.decode(request.publicKey), raw.count == 65,
            let publicKey = try? P256.Signing.PublicKey(x963Representation: raw)
        else {
            throw APIError.invalid("publicKey", "must be an uncompressed P-256 public key (65 bytes), base64url")
        }
        guard let signatureBytes = Base64URL.decode(request.signature), signatureBytes.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else {
            throw APIError.invalid("signature", "must be a P-256 ECDSA signature (r and s, 64 bytes), base64url")
        }
        guard id.utf8.count <= 64, var session = try await storage.qrSession(id: id) else {
            throw APIError.notFound("sign-in code")
        }
        guard Base64URL.encode(SHA256.hash(data: raw)) == session.keyHash,
            publicKey.isValidSignature(signature, for: IdentityStatement.qrRedemption(session: id, nonce: session.nonce))
        else {
            throw APIError(
                .unauthorized, .invalidProof, "only the page that holds the code's key can redeem it", field: "signature")
        }
        if wait > 0, session.status == "pending", session.expiresAt > environment.now() {
            guard waiting.enter(code: id, limit: configuration.qrRedeemWaitLimit) else {
                throw APIError(
                    .tooManyRequests, .busy, "too many redemptions are waiting; ask again shortly",
                    headers: [.retryAfter: "2"])
            }
            defer { waiting.leave(code: id) }
            let deadline = ContinuousClock.now + .seconds(min(wait, configuration.qrRedeemMaximumWait))
            while session.status == "pending", session.expiresAt > environment.now(), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                session = try await storage.qrSession(id: id) ?? session
            }
        }
        switch session.status {
        case "pending" where session.expiresAt > environment.now(): return .pending
        case "denied": throw APIError(.forbidden, .signInDenied, "the sign-in was denied on the device")
        default: break
        }
        guard let redeemed = try await storage.redeemQRSession(id: id, now: environment.now()),
            let userId = redeemed.userId, let user = try await storage.user(id: userId),
            let deviceId = redeemed.deviceId, let device = try await storage.enrolledDevice(id: deviceId),
            device.revokedAt == nil
        else {
            throw APIError(.conflict, .transactionClosed, "this sign-in code has expired or was already used")
        }
        // NB: the session is bound to the device that approved it: revoking that device ends it too.
        return .tokens(try await mobile.identity.issueTokens(for: user, familyId: nil, deviceId: deviceId))
    }
}
