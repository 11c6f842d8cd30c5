import Crypto
import Foundation
import HTTPTypes
import PWAKitAPI
import PWAKitBundles
import PWAKitEncoding

/// Mobile identity on the server: device enrolment, PIN and biometric proofs (the server is the only
/// place a PIN guess can be checked, and it counts them), sessions bound to a device, and
/// mobile-authentication transactions answered on the device with number matching.
struct MobileIdentityService: Sendable {
    let storage: any ServerStorage
    let environment: ServerEnvironment
    let configuration: ServerConfiguration
    let identity: IdentityService
    let proofs: DeviceProofVerifier

    init(
        storage: any ServerStorage, environment: ServerEnvironment, configuration: ServerConfiguration, identity: IdentityService
    ) {
        self.storage = storage
        self.environment = environment
        self.configuration = configuration
        self.identity = identity
        self.proofs = DeviceProofVerifier(storage: storage, environment: environment, configuration: configuration)
    }

    // MARK: Enrolment

    /// Enrols a device for `userId` once both keys have signed the enrolment statement.
    func enrol(_ request: EnrolDeviceRequest, userId: String) async throws -> EnrolledDeviceRecord {
        let name = try Validation.text(request.name, field: "name", maximum: 100)
        guard let deviceKey = DevicePublicKey(request.deviceKey) else {
            throw APIError.invalid(
                "deviceKey", "must be a 32-byte Ed25519 or a 65-byte uncompressed P-256 public key, base64url")
        }
        guard let pinKey = DeviceProofVerifier.publicKey(request.pinKey) else {
            throw APIError.invalid("pinKey", "must be a 32-byte Ed25519 public key, base64url")
        }
        guard request.deviceKey != request.pinKey else { throw APIError.invalid("pinKey", "must differ from deviceKey") }
        let statement = IdentityStatement.enrolment(userId: userId, deviceKey: request.deviceKey, pinKey: request.pinKey)
        guard let signature = DeviceProofVerifier.signature(request.deviceSignature),
            deviceKey.isValidSignature(signature, for: statement)
        else {
            throw APIError(
                .badRequest, .badSignature, "deviceSignature does not verify with deviceKey", field: "deviceSignature")
        }
        guard let signature = DeviceProofVerifier.signature(request.pinSignature),
            pinKey.isValidSignature(signature, for: statement)
        else {
            throw APIError(.badRequest, .badSignature, "pinSignature does not verify with pinKey", field: "pinSignature")
        }
        let device = EnrolledDeviceRecord(
            id: environment.identifier(), userId: userId, name: name, deviceKey: request.deviceKey, pinKey: request.pinKey,
            createdAt: environment.now())
        guard try await storage.enrolDevice(device, limit: configuration.enrolledDeviceLimit) else {
            throw APIError(
                .conflict, .deviceLimit,
                "this account already has \(configuration.enrolledDeviceLimit) enrolled device(s); revoke one first")
        }
        return device
    }

    func response(_ device: EnrolledDeviceRecord) -> EnrolledDeviceResponse {
        EnrolledDeviceResponse(
            id: device.id, name: device.name, createdAt: device.createdAt, lastUsedAt: device.lastUsedAt,
            authenticators: device.biometricKey == nil ? [.pin] : [.pin, .biometric],
            pinAttemptsLeft: max(0, configuration.pinAttemptLimit - device.pinFailures), pinVersion: device.pinVersion)
    }

    // MARK: Person proofs

    /// Checks the person behind a device request: the `PWAKit-User-Proof` signature by the PIN key (a
    /// counted attempt: a wrong one past the limit deregisters the device) or by the biometric key.
    /// `required`, when given, is the only authenticator accepted.
    func verifyPerson(
        header: String?, device: EnrolledDeviceRecord, deviceProof: DeviceProof, method: String, target: String,
        body: some DataProtocol, required: AuthenticatorKind? = nil
    ) async throws -> AuthenticatorKind {
        guard let header else {
            throw APIError(
                .unauthorized, .invalidProof, "this needs a \(DeviceProof.userHeaderName) header signed by an authenticator")
        }
        let proof: UserProof
        do { proof = try UserProof(header: header) } catch {
            throw APIError(
                .unauthorized, .invalidProof, "the \(DeviceProof.userHeaderName) header's \(error.part) \(error.problem)")
        }
        if let required, proof.authenticator != required {
            throw APIError(.unauthorized, .invalidProof, "this needs the \(required.rawValue) authenticator")
        }
        let input = UserProof.signingInput(for: deviceProof, method: method, target: target, body: body)
        try await checkAuthenticator(proof.authenticator, signature: proof.signature, input: input, device: device)
        return proof.authenticator
    }

    /// Verifies an authenticator's signature over `input`. A PIN check reserves one of the device's
    /// attempts before the signature is looked at, so parallel guesses consume no more than the limit.
    func checkAuthenticator(_ kind: AuthenticatorKind, signature: [UInt8], input: Data, device: EnrolledDeviceRecord)
        async throws
    {
        switch kind {
        case .biometric:
            guard let stored = device.biometricKey else {
                throw APIError(.unauthorized, .invalidProof, "this device has no biometric authenticator")
            }
            guard let key = DeviceProofVerifier.publicKey(stored), key.isValidSignature(signature, for: input) else {
                throw APIError(.unauthorized, .invalidProof, "the biometric signature does not verify")
            }
        case .pin:
            let limit = configuration.pinAttemptLimit
            guard let counted = try await storage.reservePINAttempt(deviceId: device.id, limit: limit) else {
                // NB: every attempt is in flight or spent: the device is done for.
                _ = try await storage.settlePINAttempt(deviceId: device.id, right: false, limit: limit, now: environment.now())
                throw DeviceProofVerifier.deregistered(
                    try await storage.enrolledDevice(id: device.id)
                        ?? EnrolledDeviceRecord(
                            id: device.id, userId: device.userId, name: device.name, deviceKey: device.deviceKey,
                            pinKey: device.pinKey, createdAt: device.createdAt, revokedReason: "pin_attempts"))
            }
            // NB: the key is read again after the reservation: a PIN changed meanwhile is judged by its new key.
            let current = try await storage.enrolledDevice(id: device.id)
            let right =
                current.flatMap { DeviceProofVerifier.publicKey($0.pinKey) }.map { $0.isValidSignature(signature, for: input) }
                ?? false
            let active = try await storage.settlePINAttempt(
                deviceId: device.id, right: right, limit: limit, now: environment.now())
            guard active else {
                throw APIError(
                    .forbidden, .deviceDeregistered,
                    "the PIN was wrong too many times; this device was deregistered and must wipe its identity data")
            }
            guard right else {
                let left = max(0, limit - counted)
                throw APIError(
                    .unauthorized, .wrongPIN, "the PIN is wrong; \(left) attempt\(left == 1 ? "" : "s") left",
                    headers: [.pinAttemptsLeft: String(left)])
            }
        }
    }

    /// A token pair whose session is bound to the device: revoking the device ends it.
    func session(for device: EnrolledDeviceRecord) async throws -> TokenPairResponse {
        guard let user = try await storage.user(id: device.userId) else {
            throw APIError(.forbidden, .deviceDeregistered, "the account of this device no longer exists")
        }
        return try await identity.issueTokens(for: user, familyId: nil, deviceId: device.id)
    }

    /// Replaces the PIN key (after the current PIN was proven) or sets the biometric key.
    func setKey(_ kind: AuthenticatorKind, _ request: AuthenticatorKeyRequest, device: EnrolledDeviceRecord) async throws
        -> EnrolledDeviceRecord
    {
        guard let key = DeviceProofVerifier.publicKey(request.publicKey) else {
            throw APIError.invalid("publicKey", "must be a 32-byte Ed25519 public key, base64url")
        }
        guard request.publicKey != device.deviceKey, request.publicKey != device.pinKey,
            request.publicKey != device.biometricKey
        else {
            throw APIError.invalid("publicKey", "must be a new key, not one this device already has")
        }
        let statement = IdentityStatement.authenticatorKey(deviceId: device.id, kind: kind, publicKey: request.publicKey)
        guard let signature = DeviceProofVerifier.signature(request.signature), key.isValidSignature(signature, for: statement)
        else {
            throw APIError(.badRequest, .badSignature, "signature does not verify with publicKey", field: "signature")
        }
        guard try await storage.setAuthenticatorKey(deviceId: device.id, kind: kind.rawValue, publicKey: request.publicKey)
        else {
            throw DeviceProofVerifier.deregistered(device)
        }
        return try await storage.enrolledDevice(id: device.id) ?? device
    }

    // MARK: Transactions

    /// A backend of `appId` asks a user to confirm a sign-in: one pending request per user, a flood
    /// limit, muted after a fraud report; the device is told only the transaction's id.
    func createTransaction(_ request: CreateTransactionRequest, appId: String, callerAddress: String, callerAgent: String)
        async throws -> IdentityTransactionRecord
    {
        let email = Validation.normalizedEmail(request.email)
        let message = try Validation.text(request.message, field: "message", maximum: 500)
        if let data = request.data, data.utf8.count > 4096 {
            throw APIError.invalid("data", "must be at most 4096 bytes")
        }
        let address = try request.requesterAddress.map {
            try Validation.text($0, field: "requesterAddress", maximum: 64)
        }
        let agent = try request.requesterAgent.map { try Validation.text($0, field: "requesterAgent", maximum: 512) }
        // NB: one answer for an unknown address and an account without a device.
        guard email.utf8.count <= 254, let user = try await storage.user(email: email),
            !(try await storage.enrolledDevices(userId: user.id)).isEmpty
        else {
            throw APIError(.notFound, .notEnrolled, "no enrolled device can be asked for this address", field: "email")
        }
        let now = environment.now()
        if let muted = try await storage.mutedUntil(userId: user.id), muted > now {
            throw APIError(
                .tooManyRequests, .requestsMuted,
                "the account holder reported a recent request as not theirs; requests are muted for now",
                headers: [.retryAfter: String(Int(muted.timeIntervalSince(now).rounded(.up)))])
        }
        guard
            try await storage.reserveAttempt(
                [ThrottleKey("mobile-auth:" + user.id, limit: configuration.transactionLimit)],
                since: now.addingTimeInterval(-configuration.transactionWindow), now: now)
        else {
            throw APIError(
                .tooManyRequests, .tooManyAttempts, "too many requests to this account; try again later",
                headers: [.retryAfter: String(Int(configuration.transactionWindow))])
        }
        let transaction = IdentityTransactionRecord(
            id: environment.identifier(), userId: user.id, appId: appId, message: message, data: request.data,
            requesterAddress: address ?? callerAddress, requesterAgent: agent ?? callerAgent, number: randomNumber(),
            nonce: environment.token(byteCount: 16), createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.transactionLifetime))
        guard try await storage.insertIdentityTransaction(transaction, now: now) else {
            throw APIError(
                .conflict, .transactionPending, "this account already has a request waiting for an answer; try again after it")
        }
        if let sender = configuration.pushSender {
            // NB: only the id travels through the push service; the device fetches the rest with a signed request.
            let message = PushMessage(
                title: "Confirm a sign-in", body: "Open the app to review a sign-in request",
                route: "pwakit://identity/transactions/\(transaction.id)")
            for device in try await storage.devices(userId: user.id) {
                if case .invalidToken = await sender.send(message, to: device) {
                    _ = try await storage.deleteDevice(token: device.token, userId: nil)
                }
            }
        }
        return transaction
    }

    /// A number from 10 to 99, uniform.
    private func randomNumber() -> Int {
        while true {
            let byte = Int(environment.randomBytes(1)[0])
            // NB: 180 of 256 values map evenly onto 90 numbers; the rest are drawn again.
            if byte < 180 { return 10 + byte % 90 }
        }
    }

    /// A transaction of `appId`'s as its requester sees it (an expired pending one reads expired).
    func transactionStatus(id: String, appId: String) async throws -> TransactionStatusResponse {
        guard id.utf8.count <= 64, var transaction = try await storage.identityTransaction(id: id), transaction.appId == appId
        else {
            throw APIError.notFound("transaction")
        }
        let now = environment.now()
        if transaction.status == "pending", transaction.expiresAt <= now {
            try await storage.expireIdentityTransaction(id: id, now: now)
            transaction = try await storage.identityTransaction(id: id) ?? transaction
        }
        return TransactionStatusResponse(
            id: transaction.id, status: transaction.status, reason: transaction.reason,
            authenticator: transaction.authenticator.flatMap(AuthenticatorKind.init(rawValue:)),
            assertion: transaction.assertion, nonce: transaction.nonce,
            decidedAt: transaction.decidedAt, expiresAt: transaction.expiresAt)
    }

    /// A pending transaction of the device's user, for the device to show; 404 for anyone else's, 409
    /// once it has ended.
    func pendingTransaction(id: String, device: EnrolledDeviceRecord) async throws -> IdentityTransactionRecord {
        guard id.utf8.count <= 64, let transaction = try await storage.identityTransaction(id: id),
            transaction.userId == device.userId
        else {
            throw APIError.notFound("transaction")
        }
        guard transaction.status == "pending", !transaction.answered, transaction.expiresAt > environment.now() else {
            throw APIError(.conflict, .transactionClosed, "this request has expired or was already answered")
        }
        return transaction
    }

    /// The device's one answer to a transaction: a denial (optionally "this wasn't me"), or an approval
    /// with the typed number and an authenticator's signature over the approval statement.
    func answer(_ request: AnswerTransactionRequest, id: String, device: EnrolledDeviceRecord) async throws
        -> TransactionStatusResponse
    {
        var approval: (number: Int, kind: AuthenticatorKind, signature: [UInt8])?
        if request.decision == .approve {
            guard let number = request.number else { throw APIError.invalid("number", "is required to approve") }
            guard (0...999).contains(number) else { throw APIError.invalid("number", "must be the number shown, 10 to 99") }
            guard let kind = request.authenticator else { throw APIError.invalid("authenticator", "is required to approve") }
            guard let signature = request.signature.flatMap(DeviceProofVerifier.signature) else {
                throw APIError.invalid("signature", "must be a 64-byte Ed25519 signature, base64url")
            }
            approval = (number, kind, signature)
        }
        let transaction = try await pendingTransaction(id: id, device: device)
        let now = environment.now()
        // NB: one answer per transaction, taken atomically before the number or signature is looked at.
        guard try await storage.takeTransactionAnswer(id: id, now: now) else {
            throw APIError(.conflict, .transactionClosed, "this request has expired or was already answered")
        }
        guard let approval else {
            let notMe = request.notMe ?? false
            try await storage.finishIdentityTransaction(
                id: id, status: "denied", reason: notMe ? "fraud_reported" : "denied", authenticator: nil, assertion: nil,
                deviceId: device.id, now: now)
            if notMe {
                try await storage.recordFraudReport(
                    userId: device.userId, transactionId: id, at: now,
                    mutedUntil: now.addingTimeInterval(configuration.fraudMuteDuration))
            }
            return try await transactionStatus(id: id, appId: transaction.appId)
        }
        guard approval.number == transaction.number else {
            try await storage.finishIdentityTransaction(
                id: id, status: "rejected", reason: "number_mismatch", authenticator: nil, assertion: nil,
                deviceId: device.id, now: now)
            throw APIError(
                .forbidden, .numberMismatch,
                "the number typed is not the one the requesting screen showed; this request is rejected", field: "number")
        }
        let statement = IdentityStatement.approval(
            transactionId: id, nonce: transaction.nonce, decision: .approve, typedNumber: approval.number,
            contextHash: IdentityStatement.contextHash(message: transaction.message, data: transaction.data))
        do {
            try await checkAuthenticator(approval.kind, signature: approval.signature, input: statement, device: device)
        } catch let error as APIError {
            try await storage.finishIdentityTransaction(
                id: id, status: "rejected", reason: approval.kind == .pin ? "wrong_pin" : "bad_signature", authenticator: nil,
                assertion: nil, deviceId: device.id, now: environment.now())
            throw error
        }
        let decidedAt = environment.now()
        let assertion = try await identity.tokens.approvalAssertion(
            transaction, authenticator: approval.kind.rawValue, now: decidedAt)
        try await storage.finishIdentityTransaction(
            id: id, status: "approved", reason: nil, authenticator: approval.kind.rawValue, assertion: assertion,
            deviceId: device.id, now: decidedAt)
        return try await transactionStatus(id: id, appId: transaction.appId)
    }
}

extension HTTPField.Name {
    /// How many wrong PINs a device may still enter, on a `wrong_pin` answer.
    static let pinAttemptsLeft = Self("PWAKit-PIN-Attempts-Left")!
}
