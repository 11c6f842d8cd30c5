import PWAKitAPI
public import PWAKitCore
import PWAKitModules

/// `identity`: the bridge module behind the mobile-identity showcase page (`app://identity/`).
/// Each action drives one interactor (or the other screen the showcase plays) and answers the new
/// ``IdentitySnapshot``. The device's failures land in `lastInfoDescription`, as the interactors
/// write them; the other screen's in `computer.error` and `website.error`; a payload that is not
/// well formed is refused naming its field.
///
/// It answers that origin only, whatever the grants say.
public struct IdentityModule: ActionModule {
    /// `identity`.
    public static let moduleName = "identity"
    /// Registered by the showcase only; not a configuration feature.
    public static let featureFlag: String? = nil
    /// One line for the reference.
    public static let summary =
        "The mobile-identity showcase: enrolment and PIN, authenticators, requests with number matching, QR codes, links."
    /// The origin this module answers.
    public static let origin = "app://identity"
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("identity.unknown_request", "No request with this id is waiting on this device."),
        ModuleErrorCode("identity.no_website", "The showcase was started without an app backend's credential."),
    ]

    /// The actions.
    public static let actions = ModuleActions<IdentityModule>()
        .action("getState", result: IdentitySnapshot.self, summary: "What the showcase shows now.") { module, context in
            try await module.answer(context) { _ in }
        }
        .action("start", result: IdentitySnapshot.self, summary: "Reads the stored identity and what the server says of it.") {
            module, context in
            try await module.answer(context) { await $0.start() }
        }
        .action(
            "register", payload: RegisterDevicePayload.self, result: IdentitySnapshot.self,
            summary: "Signs in with the password and opens the PIN pad to create the PIN that enrols the device.",
            example: RegisterDevicePayload(email: "ada@example.com", password: "…", deviceName: "Ada's laptop")
        ) { module, payload, context in
            try await module.answer(context) {
                await $0.interactors.registration.register(
                    email: payload.email, password: payload.password, deviceName: payload.deviceName)
            }
        }
        .action(
            "submitPin", payload: PinPayload.self, result: IdentitySnapshot.self,
            summary: "One PIN typed on the open pad (a new PIN is typed twice).", example: PinPayload(pin: "482915")
        ) { module, payload, context in
            try await module.answer(context) { await $0.interactors.pinPad.submit(payload.pin) }
        }
        .action("cancelPin", result: IdentitySnapshot.self, summary: "Closes the PIN pad.") { module, context in
            try await module.answer(context) { $0.interactors.pinPad.cancel() }
        }
        .action(
            "signIn", payload: AuthenticatorPayload.self, result: IdentitySnapshot.self,
            summary: "Signs in with the device: `pin` opens the pad, `biometric` checks now.",
            example: AuthenticatorPayload(authenticator: "pin")
        ) { module, payload, context in
            try await module.answer(context) { await $0.interactors.authenticator.authenticateUser(with: payload.kind) }
        }
        .action("logout", result: IdentitySnapshot.self, summary: "Ends the device's session.") { module, context in
            try await module.answer(context) { await $0.interactors.authenticator.logout() }
        }
        .action(
            "addBiometric", result: IdentitySnapshot.self, summary: "Opens the pad: the PIN adds the biometric authenticator."
        ) { module, context in
            try await module.answer(context) { $0.interactors.authenticatorRegistration.registerBiometric() }
        }
        .action("removeBiometric", result: IdentitySnapshot.self, summary: "Removes the biometric authenticator.") {
            module, context in
            try await module.answer(context) { await $0.interactors.authenticatorRegistration.deregisterBiometric() }
        }
        .action(
            "changePin", result: IdentitySnapshot.self, summary: "Opens the pad: the current PIN, then the new one twice."
        ) { module, context in
            try await module.answer(context) { $0.interactors.authenticatorRegistration.changePin() }
        }
        .action(
            "refreshRequests", result: IdentitySnapshot.self,
            summary: "Fetches the requests waiting for this device (the poll when push is off)."
        ) { module, context in
            try await module.answer(context) { await $0.interactors.mobileAuth.refresh() }
        }
        .action(
            "pollRequests", result: IdentitySnapshot.self,
            summary: "As `refreshRequests`, but says nothing when no request waits (the page's timer)."
        ) { module, context in
            try await module.answer(context) { await $0.interactors.mobileAuth.refresh(quietly: true) }
        }
        .action(
            "approve", payload: ApprovePayload.self, result: IdentitySnapshot.self,
            summary: "Approves a request with the number typed from the requesting screen (one try).",
            example: ApprovePayload(id: "b3c1…", number: 42, authenticator: "pin")
        ) { module, payload, context in
            try await module.answer(context) { showcase in
                let details = try module.request(payload.id, in: showcase)
                await showcase.interactors.mobileAuth.approve(details, typedNumber: payload.number, with: payload.kind)
            }
        }
        .action(
            "deny", payload: DenyPayload.self, result: IdentitySnapshot.self,
            summary: "Denies a request; `notMe` reports it and pauses requests to the account.",
            example: DenyPayload(id: "b3c1…", notMe: false)
        ) { module, payload, context in
            try await module.answer(context) { showcase in
                let details = try module.request(payload.id, in: showcase)
                await showcase.interactors.mobileAuth.deny(details, notMe: payload.notMe ?? false)
            }
        }
        .action("startScanning", result: IdentitySnapshot.self, summary: "Shows the scanner.") { module, context in
            try await module.answer(context) { $0.interactors.qrScanner.startScanning() }
        }
        .action(
            "scanWithCamera", result: IdentitySnapshot.self,
            summary: "Reads a sign-in code with the camera (on Linux: the window, read with zbar)."
        ) { module, context in
            try await module.answer(context) { await $0.scanWithCamera() }
        }
        .action(
            "scanned", payload: ScannedPayload.self, result: IdentitySnapshot.self,
            summary: "Hands the scanner a code's text (`pwakit://identity/qr?…`).",
            example: ScannedPayload(text: "pwakit://identity/qr?…")
        ) { module, payload, context in
            try await module.answer(context) { await $0.interactors.qrScanner.scanned(payload.text) }
        }
        .action(
            "approveScan", payload: AuthenticatorPayload.self, result: IdentitySnapshot.self,
            summary: "Lets the scanned code's page in: `pin` opens the pad, `biometric` signs now.",
            example: AuthenticatorPayload(authenticator: "pin")
        ) { module, payload, context in
            try await module.answer(context) { await $0.interactors.qrScanner.approve(with: payload.kind) }
        }
        .action("denyScan", result: IdentitySnapshot.self, summary: "Denies the scanned code.") { module, context in
            try await module.answer(context) { await $0.interactors.qrScanner.deny() }
        }
        .action("cancelScan", result: IdentitySnapshot.self, summary: "Hides the scanner.") { module, context in
            try await module.answer(context) { $0.interactors.qrScanner.cancel() }
        }
        .action(
            "fetchProfile", result: IdentitySnapshot.self, summary: "Calls `GET /v1/me` with the device's session."
        ) { module, context in
            try await module.answer(context) { await $0.fetchProfile() }
        }
        .action(
            "reset", result: IdentitySnapshot.self, summary: "Deregisters the device and erases its identity data."
        ) { module, context in
            try await module.answer(context) { await $0.interactors.sdk.reset() }
        }
        .action(
            "requestMagicLink", payload: EmailPayload.self, result: IdentitySnapshot.self,
            summary: "Asks for a sign-in link by mail (PKCE: the verifier stays here).",
            example: EmailPayload(email: "ada@example.com")
        ) { module, payload, context in
            try await module.answer(context) { await $0.requestMagicLink(email: payload.email) }
        }
        .action(
            "completeMagicLink", payload: LinkPayload.self, result: IdentitySnapshot.self,
            summary: "Signs in with the link from the mail.", example: LinkPayload(link: "https://…/magic?token=…")
        ) { module, payload, context in
            try await module.answer(context) { await $0.completeMagicLink(payload.link) }
        }
        .action(
            "websiteAsk", payload: WebsiteAskPayload.self, result: IdentitySnapshot.self,
            summary: "The website asks the server to have the person confirm on their device; it shows the number.",
            example: WebsiteAskPayload(email: "ada@example.com", message: "Sign in to Corner Coffee")
        ) { module, payload, context in
            try await module.answer(context) { showcase in
                guard showcase.website != nil else { throw noWebsite }
                await showcase.websiteAsk(email: payload.email, message: payload.message ?? "Sign in")
            }
        }
        .action(
            "websiteRefresh", result: IdentitySnapshot.self, summary: "The website looks at where its request stands."
        ) { module, context in
            try await module.answer(context) { showcase in
                guard showcase.website != nil else { throw noWebsite }
                await showcase.websiteRefresh()
            }
        }

        .action(
            "computerShowCode", result: IdentitySnapshot.self,
            summary: "The computer on the other screen asks for a sign-in code bound to its key and shows it."
        ) { module, context in
            try await module.answer(context) { await $0.computerShowCode() }
        }
        .action(
            "computerRefresh", result: IdentitySnapshot.self,
            summary: "The computer redeems its code with its key's signature: signed in once the device approved it."
        ) { module, context in
            try await module.answer(context) { await $0.computerRefresh() }
        }

    static let noWebsite = BridgeError(
        .module("identity", "no_website"), "start the showcase with --credential ID:SECRET to play a website")

    /// The showcase it drives.
    public let showcase: IdentityShowcase

    /// A module driving `showcase`.
    public init(showcase: IdentityShowcase) { self.showcase = showcase }

    /// Checks the caller, runs `body` on the showcase and answers its snapshot.
    func answer(_ context: ModuleContext, _ body: @MainActor (IdentityShowcase) async throws -> Void) async throws
        -> IdentitySnapshot
    {
        guard context.caller.origin == Self.origin else {
            throw BridgeError(.permissionDenied, "identity answers only \(Self.origin), not \(context.caller.origin)")
        }
        return try await run(body)
    }

    @MainActor
    private func run(_ body: @MainActor (IdentityShowcase) async throws -> Void) async throws -> IdentitySnapshot {
        try await body(showcase)
        return await showcase.snapshot()
    }

    @MainActor
    func request(_ id: String, in showcase: IdentityShowcase) throws -> TransactionDetailsResponse {
        guard let details = showcase.app.pendingTransactions.first(where: { $0.id == id }) else {
            throw BridgeError(
                .module("identity", "unknown_request"), "no request \(id) is waiting on this device; refresh the requests",
                details: .object(["path": .string("payload.id")]))
        }
        return details
    }
}

/// The payload of `identity.register`.
public struct RegisterDevicePayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The account's email address.
    public var email: String
    /// The account's password.
    public var password: String
    /// The name the device is listed under.
    public var deviceName: String
    /// Lengths.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(email, "payload.email", maxBytes: 254)
        try FieldCheck.nonEmpty(password, "payload.password", maxBytes: 1024)
        try FieldCheck.nonEmpty(deviceName, "payload.deviceName", maxBytes: 64)
    }
}

/// The payload of `identity.submitPin`.
public struct PinPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The PIN typed on the pad.
    public var pin: String
    /// Digits only, at most 64.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(pin, "payload.pin", maxBytes: 64)
        guard pin.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .field(.invalidPayload, path: "payload.pin", "must be digits only")
        }
    }
}

/// A payload naming an authenticator.
public struct AuthenticatorPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// `pin` or `biometric`.
    public var authenticator: String
    /// One of the kinds.
    public func validate() throws(BridgeError) { _ = try AuthenticatorPayload.kind(authenticator) }
    var kind: AuthenticatorKind { AuthenticatorKind(rawValue: authenticator) ?? .pin }

    static func kind(_ text: String) throws(BridgeError) -> AuthenticatorKind {
        guard let kind = AuthenticatorKind(rawValue: text) else {
            throw .field(.invalidPayload, path: "payload.authenticator", "must be pin or biometric")
        }
        return kind
    }
}

/// The payload of `identity.approve`.
public struct ApprovePayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The request's id.
    public var id: String
    /// The number typed from the requesting screen.
    public var number: Int
    /// `pin` or `biometric`.
    public var authenticator: String
    /// An id, a two-digit number, an authenticator.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(id, "payload.id", maxBytes: 64)
        try FieldCheck.range(number, 10...99, "payload.number")
        _ = try AuthenticatorPayload.kind(authenticator)
    }
    var kind: AuthenticatorKind { AuthenticatorKind(rawValue: authenticator) ?? .pin }
}

/// The payload of `identity.deny`.
public struct DenyPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The request's id.
    public var id: String
    /// Whether the person reports it as not theirs.
    public var notMe: Bool?
    /// 1…64 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(id, "payload.id", maxBytes: 64) }
}

/// The payload of `identity.scanned`.
public struct ScannedPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// What the scanner read.
    public var text: String
    /// 1…4096 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(text, "payload.text", maxBytes: 4096) }
}

/// A payload with an email address.
public struct EmailPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The address.
    public var email: String
    /// 1…254 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(email, "payload.email", maxBytes: 254) }
}

/// The payload of `identity.completeMagicLink`.
public struct LinkPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The link from the mail.
    public var link: String
    /// 1…4096 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(link, "payload.link", maxBytes: 4096) }
}

/// The payload of `identity.websiteAsk`.
public struct WebsiteAskPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The account to ask.
    public var email: String
    /// What the person is asked to confirm (default `Sign in`).
    public var message: String?
    /// Lengths.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(email, "payload.email", maxBytes: 254)
        if let message { try FieldCheck.nonEmpty(message, "payload.message", maxBytes: 500) }
    }
}
