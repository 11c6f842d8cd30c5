import Foundation
public import PWAKitAPI

/// The mobile-identity showcase behind its web page (`pwakit identity showcase`): the root state,
/// the interactors over it, the magic-link client, a camera, and — when it was given an app
/// backend's credential — the website that asks the person to confirm a sign-in, so that both
/// screens of number matching are on one page.
///
/// The page drives it through ``IdentityModule``; every action ends with a ``snapshot()``.
@MainActor
public final class IdentityShowcase {
    /// The root state.
    public let app: IdentityApp
    /// The interactors over ``app``.
    public let interactors: IdentityInteractors
    /// The client the interactors use.
    public let client: IdentityClient
    /// Passwordless sign-in, when the showcase offers it.
    public let magicLinks: MagicLinkClient?
    /// Reads a sign-in code with the camera: the code's text. On Linux, the window read with zbar.
    public let camera: (@Sendable () async throws -> String)?
    /// The website the showcase plays, when it has an app backend's credential.
    public let website: WebsiteRequester?
    /// The computer on the other screen that signs in with a code.
    public let screen: SignInScreen
    /// The code the computer shows, while it shows one.
    private(set) var code: QRSessionResponse?
    /// The computer's state.
    private(set) var computerState = IdentitySnapshot.Computer(status: "idle")
    /// The address a sign-in link was asked for, while one is awaited (read from the store at
    /// start, then kept here: a snapshot, taken on every poll, reads no secure storage).
    private(set) var awaitedLinkEmail: String?
    /// Whether a redemption is on its way: the code is spent by the first, so there is one at a time.
    private var redeeming = false
    /// The profile last fetched with the session.
    private(set) var profile: UserResponse?
    /// The website's last request and its state.
    private(set) var websiteState = IdentitySnapshot.Website()

    /// A showcase over `client`.
    public init(
        client: IdentityClient, app: IdentityApp = IdentityApp(), magicLinks: MagicLinkClient? = nil,
        camera: (@Sendable () async throws -> String)? = nil, website: WebsiteRequester? = nil
    ) {
        self.screen = SignInScreen(api: client.api)
        self.app = app
        self.client = client
        self.interactors = IdentityInteractors(app: app, client: client)
        self.magicLinks = magicLinks
        self.camera = camera
        self.website = website
    }

    /// What the page shows now.
    public func snapshot() async -> IdentitySnapshot {
        let system = app.system
        var authenticated: String?
        if case .authenticated(let id) = system.userState { authenticated = id }
        return IdentitySnapshot(
            userState: system.userState.name, authenticatedUser: authenticated, enrollmentState: system.enrollmentState.name,
            pinPadState: system.pinPadState.name, pinPadIntent: interactors.pinPad.intent?.name,
            scannerState: system.scannerState.name, isSDKInitialized: system.isSDKInitialized,
            isProcessing: system.isProcessing, lastInfoDescription: system.lastInfoDescription,
            device: IdentitySnapshot.Device(
                deviceId: app.deviceData.deviceId, name: app.deviceData.name,
                authenticators: app.deviceData.authenticators.map(\.rawValue), pinAttemptsLeft: app.deviceData.pinAttemptsLeft),
            users: app.registeredUsers.sorted { $0.email < $1.email }.map { .init(id: $0.id, email: $0.email) },
            requests: app.pendingTransactions.map {
                .init(
                    id: $0.id, appId: $0.appId, message: $0.message, data: $0.data, requesterAddress: $0.requesterAddress,
                    requesterAgent: $0.requesterAgent, expiresAt: Self.iso($0.expiresAt))
            },
            session: app.session.map { .init(id: $0.user.id, email: $0.user.email, displayName: $0.user.displayName) },
            profile: profile.map { .init(id: $0.id, email: $0.email, displayName: $0.displayName) },
            scannedSignIn: app.scannedSignIn.map {
                .init(
                    origin: $0.context.origin, requesterAddress: $0.context.requesterAddress,
                    requesterAgent: $0.context.requesterAgent, expiresAt: Self.iso($0.context.expiresAt))
            },
            awaitedLinkEmail: awaitedLinkEmail, hasCamera: camera != nil,
            pinLength: .init(min: client.policy.minimumLength, max: client.policy.maximumLength),
            computer: computerState, website: website == nil ? nil : websiteState)
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    /// Reads the stored identity (the SDK interactor) and the link awaited, if any.
    func start() async {
        await interactors.sdk.start()
        awaitedLinkEmail = (try? await magicLinks?.awaitedEmail()) ?? nil
    }

    /// Fetches the profile with the session (the resource interactor).
    func fetchProfile() async {
        profile = await interactors.resource.fetchProfile()
        if profile != nil { app.system.lastInfoDescription = "Fetched the profile with the device's session" }
    }

    /// Reads a code with the camera and hands it to the scanner.
    func scanWithCamera() async {
        guard let camera else {
            app.system.lastInfoDescription = "This device has no camera; paste the code's text instead"
            return
        }
        interactors.qrScanner.startScanning()
        let text: String
        do {
            text = try await camera()
        } catch {
            app.system.lastInfoDescription = IdentityInteractors.describe(error)
            return
        }
        // NB: the person may have cancelled while the camera looked.
        guard app.system.scannerState == .scanning else { return }
        await interactors.qrScanner.scanned(text)
    }

    /// Asks for a sign-in link by mail.
    func requestMagicLink(email: String) async {
        guard let magicLinks else {
            app.system.lastInfoDescription = "Sign-in links are off in this showcase"
            return
        }
        await IdentityInteractors.run(app) {
            try await magicLinks.request(email: email)
            awaitedLinkEmail = email
            return "If \(email) has an account, a sign-in link is on its way; open it on this device"
        }
    }

    /// Signs in with a link from the mail, on the device that asked for it.
    func completeMagicLink(_ link: String) async {
        guard let magicLinks else {
            app.system.lastInfoDescription = "Sign-in links are off in this showcase"
            return
        }
        await IdentityInteractors.run(app) {
            let session = try await magicLinks.complete(link: link)
            awaitedLinkEmail = try? await magicLinks.awaitedEmail()
            app.session = session
            app.system.setUserState(.authenticated(session.user.id))
            return "Signed in as \(session.user.email) with the link"
        }
    }

    /// The computer asks the server for a sign-in code and shows it.
    func computerShowCode() async {
        do {
            let session = try await screen.newCode()
            code = session
            computerState = .init(
                status: "waiting", codeImage: "data:image/svg+xml;base64," + Data(session.svg.utf8).base64EncodedString())
        } catch {
            code = nil
            computerState = .init(status: "failed", error: IdentityInteractors.describe(error))
        }
    }

    /// The computer tries its code: signed in once the device approved it.
    func computerRefresh() async {
        guard let code, computerState.status == "waiting", !redeeming else { return }
        redeeming = true
        let outcome: Result<TokenPairResponse?, any Error>
        do { outcome = .success(try await screen.redeem(code)) } catch { outcome = .failure(error) }
        redeeming = false
        // NB: a new code may have replaced this one while it waited.
        guard self.code?.id == code.id, computerState.status == "waiting" else { return }
        switch outcome {
        case .success(nil): return
        case .success(let tokens?):
            self.code = nil
            computerState = .init(status: "signedIn", signedInAs: tokens.user.email)
        case .failure(let error):
            self.code = nil
            computerState = .init(status: "failed", error: IdentityInteractors.describe(error))
        }
    }

    /// The website asks the server to have `email` confirm `message` on their device.
    func websiteAsk(email: String, message: String) async {
        guard let website else { return }
        do {
            let created = try await website.ask(email: email, message: message)
            websiteState = .init(requestId: created.id, number: created.number, status: "pending")
        } catch {
            websiteState = .init(error: IdentityInteractors.describe(error))
        }
    }

    /// The website looks at its last request.
    func websiteRefresh() async {
        guard let website, let id = websiteState.requestId else { return }
        do {
            let status = try await website.status(id: id)
            // NB: the website may have asked again while this answer was on its way.
            guard websiteState.requestId == id else { return }
            websiteState.status = status.status
            websiteState.reason = status.reason
            websiteState.error = nil
        } catch {
            guard websiteState.requestId == id else { return }
            websiteState.error = IdentityInteractors.describe(error)
        }
    }
}

/// A website's backend asking the platform to have a person confirm something on their enrolled
/// device (what `pwakit identity ask` does): it holds an app backend's credential, which a real
/// device never does.
public struct WebsiteRequester: Sendable {
    /// The platform's API.
    public let api: APIClient
    let credential: APIClient.Credential

    /// A requester with the app backend credential `id`:`secret`.
    public init(api: APIClient, credentialId: String, secret: String) {
        self.api = api
        self.credential = .basic(id: credentialId, secret: secret)
    }

    /// Creates a mobile-authentication request; its number is for the website's screen.
    public func ask(email: String, message: String) async throws -> CreatedTransactionResponse {
        try await api.call(
            "POST", "/v1/identity/transactions",
            body: try APIClient.encode(CreateTransactionRequest(email: email, message: message)), credential: credential,
            idempotent: false)
    }

    /// Where a request stands.
    public func status(id: String) async throws -> TransactionStatusResponse {
        try await api.call("GET", "/v1/identity/transactions/\(try IdentityClient.segment(id))", credential: credential)
    }
}
