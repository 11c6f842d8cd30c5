import Foundation
import PWAKitAPI
import PWAKitDependencies
import PWAKitIdentity
import PWAKitModules
import PWAKitTesting
import Synchronization
import Testing

@Suite("The showcase's interactors over one root state")
@MainActor
struct InteractorTests {
    @Test("register, create the PIN twice, sign in on the pad, approve a request by number, deny one as not me")
    func walkthrough() async throws {
        try await LiveIdentityServer.run { live in
            let app = await IdentityApp()
            let interactors = await IdentityInteractors(app: app, client: live.deviceClient())
            try await Self.flow(live: live, app: app, interactors: interactors)
        }
    }

    static func flow(live: LiveIdentityServer, app: IdentityApp, interactors: IdentityInteractors) async throws {
        await interactors.sdk.start()
        #expect(app.system.isSDKInitialized)
        #expect(app.system.userState == .notRegistered)
        let (user, _) = try await live.account()
        await interactors.registration.register(email: user.email, password: "correct horse battery", deviceName: "Ana's phone")
        #expect(app.system.pinPadState == .createPin)
        await interactors.pinPad.submit("12345")
        #expect(app.system.lastInfoDescription?.contains("sequence") == true)
        await interactors.pinPad.submit("27491")
        #expect(app.system.lastInfoDescription == "Type the new PIN again")
        await interactors.pinPad.submit("27491")
        #expect(app.system.pinPadState == .hidden)
        #expect(app.system.userState == .registered)
        #expect(app.system.enrollmentState == .mobileEnrolled)
        #expect(app.registeredUsers.map(\.email) == [user.email])

        await interactors.authenticator.authenticateUser(with: .pin)
        #expect(app.system.pinPadState == .validatePin)
        await interactors.pinPad.submit("11235")
        #expect(app.system.lastInfoDescription?.contains("2 attempts left") == true)
        await interactors.authenticator.authenticateUser(with: .pin)
        await interactors.pinPad.submit("27491")
        #expect(app.system.userState == .authenticated(user.id))
        #expect(await interactors.resource.fetchProfile()?.id == user.id)

        let created = try APIClient.decode(
            CreatedTransactionResponse.self,
            from: try await live.createTransaction(email: user.email, message: "Sign in on Firefox").body)
        await interactors.mobileAuth.refresh()
        #expect(app.pendingTransactions.map(\.message) == ["Sign in on Firefox"])
        await interactors.mobileAuth.approve(app.pendingTransactions[0], typedNumber: created.number, with: .pin)
        await interactors.pinPad.submit("27491")
        #expect(app.system.lastInfoDescription == "Approved")
        #expect(app.pendingTransactions.isEmpty)
        #expect(try await live.status(created.id).status == "approved")

        let second = try APIClient.decode(
            CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
        await interactors.mobileAuth.handlePush(route: "pwakit://identity/transactions/\(second.id)")
        #expect(app.pendingTransactions.map(\.id) == [second.id])
        await interactors.mobileAuth.deny(app.pendingTransactions[0], notMe: true)
        #expect(app.system.lastInfoDescription?.contains("reported") == true)
        #expect(try await live.status(second.id).reason == "fraud_reported")

        interactors.authenticatorRegistration.changePin()
        #expect(app.system.pinPadState == .changePin)
        await interactors.pinPad.submit("27491")
        await interactors.pinPad.submit("80417")
        await interactors.pinPad.submit("80417")
        #expect(app.system.lastInfoDescription == "The PIN is changed")

        await interactors.authenticator.logout()
        #expect(app.system.userState == .unauthenticated)
        #expect(app.session == nil)
    }

    @Test("three wrong PINs deregister the device: the state goes back to not registered, and start finds nothing")
    func deregistration() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled(pin: "27491")
            let app = await IdentityApp()
            let interactors = await IdentityInteractors(app: app, client: client)
            await interactors.sdk.start()
            #expect(await app.system.userState == .registered)
            for _ in 0..<3 {
                await interactors.authenticator.authenticateUser(with: .pin)
                await interactors.pinPad.submit("11235")
            }
            #expect(await app.system.userState == .notRegistered)
            #expect(await app.system.lastInfoDescription?.contains("deregistered") == true)
            await interactors.sdk.start()
            #expect(await app.system.userState == .notRegistered)
        }
    }

    @Test("biometric sign-in falls back to the PIN pad when the check fails")
    func biometricFallback() async throws {
        try await LiveIdentityServer.run { live in
            let sensor = SimulatedDevice()
            let (client, user, _) = try await live.enrolled(pin: "27491", biometrics: sensor)
            let app = await IdentityApp()
            let interactors = await IdentityInteractors(app: app, client: client)
            await interactors.sdk.start()
            await interactors.authenticatorRegistration.registerBiometric()
            await interactors.pinPad.submit("27491")
            #expect(await app.deviceData.authenticators == [.pin, .biometric])
            await interactors.authenticator.authenticateUser(with: .biometric)
            #expect(await app.system.userState == .authenticated(user.id))
            await sensor.scriptBiometrics([.userCancel])
            await interactors.authenticator.authenticateUser(with: .biometric)
            #expect(await app.system.pinPadState == .validatePin)
        }
    }
}

@Suite("The identity client from the dependency container")
struct IdentityDependencyTests {
    @Test("transport, clock and date come from the container: a counting transport sees every request")
    func wiredFromTheContainer() async throws {
        try await LiveIdentityServer.run { live in
            let (user, tokens) = try await live.account()
            let transport = CountingRequests(URLSessionTransport())
            let clock = live.clock
            try await withTestDependencies {
                $0.httpTransport = transport
                $0.clock = ImmediateClock()
                $0.date = DateGenerator { clock.now }
            } operation: {
                var client = IdentityClient(baseURL: live.baseURL, keychain: IdentityKeychain(store: InMemorySecureStore()))
                client.cost = PINCost(n: 16, r: 8, p: 1)
                try await client.enrol(name: "phone", pin: "27491", user: user, accessToken: tokens.accessToken)
                #expect(try await client.signIn(.pin("27491")).user.id == user.id)
            }
            #expect(transport.count == 2)
        }
    }
}

/// Passes requests on and counts them.
final class CountingRequests: HTTPTransport {
    private let inner: any HTTPTransport
    private let counted = Mutex(0)
    init(_ inner: any HTTPTransport) { self.inner = inner }
    var count: Int { counted.withLock { $0 } }
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        counted.withLock { $0 += 1 }
        return try await inner.send(request)
    }
}

/// A model as a view would have one: it finds the interactors in the container, not in its initializer.
@MainActor
struct ProfileModel {
    @Dependency(\.identityInteractors) var interactors

    func signInAndLoad(pin: String) async -> UserResponse? {
        guard let interactors else { return nil }
        await interactors.authenticator.authenticateUser(with: .pin)
        await interactors.pinPad.submit(pin)
        return await interactors.resource.fetchProfile()
    }
}

@Suite("The interactors from the dependency container")
@MainActor
struct InteractorDependencyTests {
    @Test("a model reads the interactors the app set, and acts on the one root state")
    func interactorsFromTheContainer() async throws {
        try await LiveIdentityServer.run { live in
            let app = await IdentityApp()
            let (client, user, _) = try await live.enrolled(pin: "27491")
            let interactors = await IdentityInteractors(app: app, client: client)
            let profile = await withTestDependencies {
                $0.identityInteractors = interactors
            } operation: {
                await ProfileModel().signInAndLoad(pin: "27491")
            }
            #expect(profile?.id == user.id)
            #expect(await app.system.userState == .authenticated(user.id))
            // Live, nothing is wired until the app does it.
            #expect(DependencyValues(context: .live).identityInteractors == nil)
        }
    }
}
