import Crypto
public import Foundation
public import PWAKitAPI
import PWAKitEncoding
public import PWAKitModules

/// The device side of mobile identity: enrols this device, proves the person with the PIN (which
/// never leaves the device, and which only the server can judge) or biometrics, signs every request
/// with the device key, and answers mobile-authentication requests with number matching.
///
/// When the server says the device was deregistered (revoked by its owner, or too many wrong PINs),
/// the client wipes the device's identity data and throws ``IdentityError/Code/deregistered``.
public struct IdentityClient: Sendable {
    /// The platform server.
    public let api: APIClient
    /// Where the device's identity material lives.
    public let keychain: IdentityKeychain
    /// The biometric check guarding the biometric key; nil when the device has none.
    public var biometrics: (any BiometricsProvider)?
    /// What a new PIN must be.
    public var policy: PINPolicy
    /// scrypt's cost for new PINs.
    public var cost: PINCost
    /// The current time (proofs carry it).
    public var now: @Sendable () -> Date
    /// Secure random bytes (keys, nonces).
    public var randomBytes: @Sendable (Int) -> [UInt8]
    /// Makes and uses the device key (software Ed25519 by default; a Secure Enclave P-256 store on Apple).
    public var deviceKeys: any DeviceKeyStore = SoftwareDeviceKeys()

    /// Creates a client.
    public init(
        api: APIClient, keychain: IdentityKeychain, biometrics: (any BiometricsProvider)? = nil, policy: PINPolicy = .standard,
        cost: PINCost = .standard, now: @escaping @Sendable () -> Date = { Date() },
        randomBytes: @escaping @Sendable (Int) -> [UInt8] = PINVault.systemRandomBytes
    ) {
        self.api = api
        self.keychain = keychain
        self.biometrics = biometrics
        self.policy = policy
        self.cost = cost
        self.now = now
        self.randomBytes = randomBytes
    }

    /// How the person proves it is them.
    public enum PersonCheck: Sendable {
        /// The PIN, typed now.
        case pin(String)
        /// A biometric check, prompting with `reason`.
        case biometric(reason: String)

        var kind: AuthenticatorKind {
            switch self {
            case .pin: .pin
            case .biometric: .biometric
            }
        }
    }

    // MARK: Enrolment

    /// Enrols this device for the signed-in `user` with a new PIN: makes the device key, the device
    /// secret and the PIN-wrapped user key, has the server check that both keys signed, and stores them.
    @discardableResult
    public func enrol(name: String, pin: String, user: UserResponse, accessToken: String) async throws
        -> EnrolledDeviceResponse
    {
        try policy.check(pin)
        let random = randomBytes
        let deviceKey = try deviceKeys.makeKey(randomBytes: random)
        let deviceSecret = randomBytes(32)
        let wrapped = try PINVault.wrapNew(
            pin: pin, deviceSecret: deviceSecret, cost: cost, pinVersion: 1, randomBytes: { random($0) })
        let deviceKeyText = Base64URL.encode(deviceKey.publicKey)
        let pinKeyText = Base64URL.encode(wrapped.key.publicKey.rawRepresentation)
        let statement = IdentityStatement.enrolment(userId: user.id, deviceKey: deviceKeyText, pinKey: pinKeyText)
        let request = EnrolDeviceRequest(
            name: name, deviceKey: deviceKeyText, pinKey: pinKeyText,
            deviceSignature: Base64URL.encode(try deviceKeys.sign(statement, with: deviceKey.stored)),
            pinSignature: Base64URL.encode(try wrapped.key.signature(for: statement)))
        let enrolled: EnrolledDeviceResponse = try await api.call(
            "POST", "/v1/identity/devices", body: try APIClient.encode(request), credential: .bearer(accessToken))
        let identity = DeviceIdentity(
            deviceId: enrolled.id, userId: user.id, email: user.email, name: enrolled.name,
            deviceSeed: deviceKey.stored, deviceSecret: Base64URL.encode(deviceSecret), pin: wrapped.stored,
            enrolledAt: enrolled.createdAt, deviceKeyAlgorithm: deviceKeys.algorithm, deviceKeyStore: deviceKeys.storeKind)
        do {
            try await keychain.save(identity)
        } catch {
            // NB: a device the server knows but this one cannot use would hold the account's only slot.
            _ = try? await api.exchange("DELETE", "/v1/identity/devices/\(enrolled.id)", credential: .bearer(accessToken))
            throw error
        }
        return enrolled
    }

    /// The enrolled device's record, or nil when this device is not enrolled.
    public func identity() async throws -> DeviceIdentity? { try await keychain.device() }

    /// The server's view of this device (authenticators, PIN attempts left); settles a PIN change
    /// that stopped half-way.
    public func device() async throws -> EnrolledDeviceResponse {
        let identity = try await requireIdentity()
        let device: EnrolledDeviceResponse = try await signedCall("GET", "/v1/identity/device", identity: identity)
        try await settlePendingPIN(identity, serverVersion: device.pinVersion)
        return device
    }

    /// Deregisters this device on the server and wipes its identity data.
    public func deregister() async throws {
        let identity = try await requireIdentity()
        _ = try await signedExchange("DELETE", "/v1/identity/device", identity: identity)
        try await keychain.wipe()
    }

    // MARK: The person

    /// Signs in with the device: a session bound to this device (revoking the device ends it).
    public func signIn(_ check: PersonCheck) async throws -> TokenPairResponse {
        let identity = try await readyIdentity()
        return try await signedCall("POST", "/v1/identity/device/session", identity: identity, person: check)
    }

    /// Changes the PIN; the current one proves the person. The new key is kept beside the old until
    /// the server confirms, so a stop at any instant leaves a PIN that works.
    public func changePIN(current: String, new: String) async throws {
        try policy.check(new, field: "newPin")
        var identity = try await readyIdentity()
        let next = identity.pin.pinVersion + 1
        let random = randomBytes
        let wrapped = try PINVault.wrapNew(
            pin: new, deviceSecret: try secret(of: identity), cost: cost, pinVersion: next, randomBytes: { random($0) })
        identity.pendingPIN = wrapped.stored
        try await keychain.save(identity)
        let body = try keyChange(wrapped.key, kind: .pin, identity: identity)
        do {
            _ = try await signedExchange(
                "PUT", "/v1/identity/device/authenticators/pin", body: body, identity: identity, person: .pin(current))
        } catch let error as APIClientError where error.status != nil {
            // NB: the server answered and refused: the change did not happen.
            identity.pendingPIN = nil
            try await keychain.save(identity)
            throw error
        }
        identity.pin = wrapped.stored
        identity.pendingPIN = nil
        try await keychain.save(identity)
    }

    /// Adds a biometric authenticator (the PIN proves the person): a key of its own, released only
    /// after a biometric check.
    public func addBiometric(pin: String) async throws {
        guard biometrics != nil else { throw IdentityError(.noBiometric, "this device has no biometrics") }
        let identity = try await readyIdentity()
        let seed = randomBytes(32)
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        let body = try keyChange(key, kind: .biometric, identity: identity)
        _ = try await signedExchange(
            "PUT", "/v1/identity/device/authenticators/biometric", body: body, identity: identity, person: .pin(pin))
        try await keychain.setBiometricSeed(Base64URL.encode(seed))
    }

    /// Removes the biometric authenticator, here and on the server.
    public func removeBiometric() async throws {
        let identity = try await requireIdentity()
        _ = try await signedExchange("DELETE", "/v1/identity/device/authenticators/biometric", identity: identity)
        try await keychain.setBiometricSeed(nil)
    }

    /// Whether a biometric key is stored on this device.
    public func hasBiometric() async throws -> Bool { try await keychain.biometricSeed() != nil }

    // MARK: Mobile authentication

    /// The requests waiting for this device's answer.
    public func pendingTransactions() async throws -> [PendingTransactionsResponse.PendingTransaction] {
        let identity = try await requireIdentity()
        let answer: PendingTransactionsResponse = try await signedCall(
            "GET", "/v1/identity/device/transactions", identity: identity)
        return answer.transactions
    }

    /// What to show the person about a request (the push carries only its id).
    public func transaction(id: String) async throws -> TransactionDetailsResponse {
        let identity = try await requireIdentity()
        return try await signedCall("GET", "/v1/identity/device/transactions/\(try Self.segment(id))", identity: identity)
    }

    /// Approves a request: the number typed from the requesting screen (one try) and the person's
    /// authenticator signing the transaction, its nonce, the decision, the number and what was shown.
    public func approve(_ details: TransactionDetailsResponse, typedNumber: Int, check: PersonCheck) async throws
        -> TransactionStatusResponse
    {
        let identity = try await readyIdentity()
        let statement = IdentityStatement.approval(
            transactionId: details.id, nonce: details.nonce, decision: .approve, typedNumber: typedNumber,
            contextHash: IdentityStatement.contextHash(message: details.message, data: details.data))
        let signature = try await sign(statement, check: check, identity: identity)
        let body = AnswerTransactionRequest(
            decision: .approve, number: typedNumber, authenticator: check.kind, signature: Base64URL.encode(signature))
        return try await signedCall(
            "POST", "/v1/identity/device/transactions/\(try Self.segment(details.id))/answer",
            body: try APIClient.encode(body), identity: identity)
    }

    /// Denies a request; `notMe` reports it as not the person's, which mutes requests for a while.
    public func deny(id: String, notMe: Bool = false) async throws -> TransactionStatusResponse {
        let identity = try await requireIdentity()
        let body = AnswerTransactionRequest(decision: .deny, notMe: notMe)
        return try await signedCall(
            "POST", "/v1/identity/device/transactions/\(try Self.segment(id))/answer", body: try APIClient.encode(body),
            identity: identity)
    }

    // MARK: Sign-in codes

    /// A scanned sign-in code and the context of the page that shows it, for the person to check.
    public struct ScannedSignIn: Hashable, Sendable {
        /// What the code holds.
        public var payload: QRSignInPayload
        /// Where and from what browser the page asked, as the server recorded it.
        public var context: QRContextResponse
    }

    /// Reads a scanned code and fetches its page's context; a code that is not ours, or whose origin
    /// differs from the server's record, is refused (`identity.invalid_code`, naming the part at
    /// fault: `code.nonce`, or `code` for the code as a whole).
    public func scan(_ text: String) async throws -> ScannedSignIn {
        let payload: QRSignInPayload
        do { payload = try QRSignInPayload(text: text.trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
            // NB: the part at fault under `code` (`code.nonce`), or `code` for the code as a whole; a
            // part this client does not know (a repeated query name of the scanned text) is not echoed.
            let known: Set<String> = ["v", "origin", "session", "key", "nonce"]
            let part = known.contains(error.part) || error.part == "code" ? error.part : "a repeated query name"
            throw IdentityError(
                .invalidCode, "the scanned code's \(part) \(error.problem)",
                field: known.contains(error.part) ? "code.\(error.part)" : "code")
        }
        let identity = try await requireIdentity()
        let context: QRContextResponse = try await signedCall(
            "GET", "/v1/identity/device/qr/\(try Self.segment(payload.session))", identity: identity)
        guard context.origin == payload.origin else {
            throw IdentityError(
                .invalidCode, "the code names \(payload.origin) but the server made it for \(context.origin)",
                field: "code.origin")
        }
        return ScannedSignIn(payload: payload, context: context)
    }

    /// Lets the page that shows the code in: the person's authenticator signs the session, its nonce,
    /// the page's key hash and its origin, as scanned.
    public func approve(_ scanned: ScannedSignIn, check: PersonCheck) async throws -> QRStatusResponse {
        let identity = try await readyIdentity()
        let payload = scanned.payload
        let statement = IdentityStatement.qrApproval(
            session: payload.session, nonce: payload.nonce, keyHash: payload.keyHash, origin: payload.origin)
        let signature = try await sign(statement, check: check, identity: identity)
        let body = AnswerQRRequest(
            decision: .approve, keyHash: payload.keyHash, nonce: payload.nonce, authenticator: check.kind,
            signature: Base64URL.encode(signature))
        return try await signedCall(
            "POST", "/v1/identity/device/qr/\(try Self.segment(payload.session))/answer", body: try APIClient.encode(body),
            identity: identity)
    }

    /// Refuses a scanned code.
    public func deny(_ scanned: ScannedSignIn) async throws -> QRStatusResponse {
        let identity = try await requireIdentity()
        let body = AnswerQRRequest(decision: .deny, keyHash: scanned.payload.keyHash, nonce: scanned.payload.nonce)
        return try await signedCall(
            "POST", "/v1/identity/device/qr/\(try Self.segment(scanned.payload.session))/answer",
            body: try APIClient.encode(body), identity: identity)
    }

    // MARK: Signing

    /// The headers that sign a request: the device proof, and the person's when `person` is given.
    public func proofHeaders(method: String, target: String, body: Data, identity: DeviceIdentity, person: PersonCheck?)
        async throws -> [String: String]
    {
        let nonce = Base64URL.encode(randomBytes(DeviceProof.nonceByteCount))
        var proof = DeviceProof(
            deviceId: identity.deviceId, time: Int64((now().timeIntervalSince1970 * 1000).rounded(.down)), nonce: nonce,
            signature: [])
        proof.signature = try deviceKeys(for: identity).sign(
            proof.signingInput(method: method, target: target, body: body), with: identity.deviceSeed)
        var headers = [DeviceProof.headerName: proof.headerValue]
        if let person {
            let input = UserProof.signingInput(for: proof, method: method, target: target, body: body)
            let signature = try await sign(input, check: person, identity: identity)
            headers[DeviceProof.userHeaderName] = UserProof(authenticator: person.kind, signature: signature).headerValue
        }
        return headers
    }

    /// Signs with the PIN-unwrapped user key (any PIN gives a key; the server judges it) or, after a
    /// biometric check, the biometric key.
    func sign(_ input: Data, check: PersonCheck, identity: DeviceIdentity) async throws -> [UInt8] {
        switch check {
        case .pin(let pin):
            let key = try PINVault.unwrap(identity.pin, pin: pin, deviceSecret: try secret(of: identity))
            return Array(try key.signature(for: input))
        case .biometric(let reason):
            guard let biometrics, let seed = try await keychain.biometricSeed(), let raw = Base64URL.decode(seed) else {
                throw IdentityError(.noBiometric, "this device has no biometric authenticator")
            }
            if let failure = await biometrics.authenticate(reason: reason) {
                throw IdentityError(.biometricFailed, "the biometric check failed (\(failure.rawValue)); the PIN still works")
            }
            return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: raw).signature(for: input))
        }
    }

    func signedExchange(
        _ method: String, _ path: String, body: Data? = nil, identity: DeviceIdentity, person: PersonCheck? = nil
    ) async throws -> HTTPResponseData {
        guard let url = URL(string: path, relativeTo: api.baseURL)?.absoluteURL else {
            throw APIClientError(.badResponse, "\(path) is not a path on \(api.baseURL)")
        }
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let headers = try await proofHeaders(
            method: method, target: target, body: body ?? Data(), identity: identity, person: person)
        // NB: never retried: a signed request's nonce is single-use, and a retry would be refused as a replay.
        let response = try await api.exchange(method, path, body: body, headers: headers, idempotent: false)
        guard (200..<300).contains(response.status) else {
            let error = APIClient.error(from: response)
            if error.code.rawValue == "device_deregistered" {
                try await keychain.wipe()
                throw IdentityError(.deregistered, error.message)
            }
            throw error
        }
        return response
    }

    func signedCall<Response: Decodable>(
        _ method: String, _ path: String, body: Data? = nil, identity: DeviceIdentity, person: PersonCheck? = nil,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        let response = try await signedExchange(method, path, body: body, identity: identity, person: person)
        return try APIClient.decode(Response.self, from: response.body)
    }

    // MARK: Stored material

    func requireIdentity() async throws -> DeviceIdentity {
        guard let identity = try await keychain.device() else {
            throw IdentityError(.notEnrolled, "this device is not enrolled; enrol it first")
        }
        return identity
    }

    /// The identity with any half-done PIN change settled first (asking the server which PIN is current).
    func readyIdentity() async throws -> DeviceIdentity {
        let identity = try await requireIdentity()
        guard identity.pendingPIN != nil else { return identity }
        let device: EnrolledDeviceResponse = try await signedCall("GET", "/v1/identity/device", identity: identity)
        return try await settlePendingPIN(identity, serverVersion: device.pinVersion)
    }

    @discardableResult
    func settlePendingPIN(_ identity: DeviceIdentity, serverVersion: Int) async throws -> DeviceIdentity {
        guard let pending = identity.pendingPIN else { return identity }
        var settled = identity
        if pending.pinVersion == serverVersion { settled.pin = pending }
        settled.pendingPIN = nil
        try await keychain.save(settled)
        return settled
    }

    /// The store that made `identity`'s device key: ``deviceKeys`` when kind and algorithm agree;
    /// software keys of the record's algorithm for a software record (one made before the client's
    /// store was changed); otherwise `corrupt_store` (an enclave's handle is no software key).
    func deviceKeys(for identity: DeviceIdentity) throws -> any DeviceKeyStore {
        let algorithm = identity.deviceKeyAlgorithm ?? .ed25519
        let kind = identity.deviceKeyStore ?? "software"
        if deviceKeys.algorithm == algorithm, deviceKeys.storeKind == kind { return deviceKeys }
        guard kind == "software" else {
            throw IdentityError(
                .corruptStore, "this device's key lives in the \(kind) store, which this client does not use")
        }
        return SoftwareDeviceKeys(algorithm)
    }

    func secret(of identity: DeviceIdentity) throws -> [UInt8] {
        guard let secret = Base64URL.decode(identity.deviceSecret), secret.count == 32 else {
            throw IdentityError(.corruptStore, "the stored device secret cannot be read")
        }
        return secret
    }

    func keyChange(_ key: Curve25519.Signing.PrivateKey, kind: AuthenticatorKind, identity: DeviceIdentity) throws -> Data {
        let publicKey = Base64URL.encode(key.publicKey.rawRepresentation)
        let statement = IdentityStatement.authenticatorKey(deviceId: identity.deviceId, kind: kind, publicKey: publicKey)
        return try APIClient.encode(
            AuthenticatorKeyRequest(publicKey: publicKey, signature: Base64URL.encode(try key.signature(for: statement))))
    }

    static func segment(_ value: String) throws -> String {
        guard (1...64).contains(value.utf8.count), value.utf8.allSatisfy(DeviceProof.isTokenByte) else {
            throw IdentityError(.invalidCode, "a transaction id is 1 to 64 characters of A-Z a-z 0-9 - _", field: "id")
        }
        return value
    }
}
