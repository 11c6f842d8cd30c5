import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitModules
import PWAKitTesting
import Synchronization
import Testing

@testable import PWAKitIdentity

@Suite("The showcase's bridge module: every flow through `identity.*`, and what it refuses")
@MainActor
struct ShowcaseModuleTests {
    func context(origin: String = IdentityModule.origin) throws -> ModuleContext {
        let configuration = try ConfigurationLoader.load(
            from: Data(
                #"{"version":1,"app":{"name":"PWAKit Identity","bundleId":"pwakit.identity","startUrl":"app://identity/"},"origins":{"allowed":["identity"]}}"#
                    .utf8))
        return ModuleContext(
            callID: "1", caller: BridgeCaller(origin: origin, pageLoad: PageLoadID(rawValue: 1), grant: .all),
            app: AppIdentity(name: "PWAKit Identity", bundleID: "pwakit.identity"), configuration: configuration,
            emit: { _ in })
    }

    func call(_ module: IdentityModule, _ action: String, _ payload: JSONValue? = nil, origin: String = IdentityModule.origin)
        async throws -> IdentitySnapshot
    {
        let answer = try await module.handle(action: action, payload: payload, context: try context(origin: origin))
        return try #require(answer).decode(IdentitySnapshot.self)
    }

    func refusal(_ module: IdentityModule, _ action: String, _ payload: JSONValue?, origin: String = IdentityModule.origin)
        async -> BridgeError?
    {
        do {
            _ = try await call(module, action, payload, origin: origin)
            return nil
        } catch { return error as? BridgeError }
    }

    /// What the camera sees: set by the test, as a code shown on the other screen.
    final class Viewfinder: Sendable {
        let text = Mutex<String?>(nil)
    }

    @Test("enrol, sign in, biometrics, number matching both ways, a code read by the camera, PIN change, not me, reset")
    func everyFlow() async throws {
        try await LiveIdentityServer.run { live in
            let viewfinder = Viewfinder()
            let showcase = await IdentityShowcase(
                client: live.deviceClient(biometrics: SimulatedDevice()),
                camera: {
                    guard let text = viewfinder.text.withLock({ $0 }) else {
                        throw IdentityError(.invalidCode, "no sign-in code is in view")
                    }
                    return text
                },
                website: WebsiteRequester(
                    api: live.api, credentialId: live.credentialId, secret: LiveIdentityServer.credentialSecret))
            try await Self.walk(self, live: live, module: IdentityModule(showcase: showcase), viewfinder: viewfinder)
        }
    }

    static func walk(_ suite: ShowcaseModuleTests, live: LiveIdentityServer, module: IdentityModule, viewfinder: Viewfinder)
        async throws
    {
        let call = { (action: String, payload: JSONValue?) in try await suite.call(module, action, payload) }
        var state = try await call("start", nil)
        #expect(state.isSDKInitialized && state.userState == "notRegistered" && state.enrollmentState == "unenrolled")
        #expect(state.website?.number == nil && state.computer.status == "idle" && state.hasCamera)

        let (user, _) = try await live.account()
        state = try await call(
            "register", ["email": .string(user.email), "password": "correct horse battery", "deviceName": "Ana's laptop"])
        #expect(state.pinPadState == "createPin" && state.pinPadIntent == "enrol")
        state = try await call("submitPin", ["pin": "12345"])
        #expect(state.lastInfoDescription?.contains("sequence") == true)
        _ = try await call("submitPin", ["pin": "27491"])
        state = try await call("submitPin", ["pin": "27491"])
        #expect(state.enrollmentState == "mobileEnrolled" && state.userState == "registered")
        #expect(state.pinPadState == "hidden" && state.device.authenticators == ["pin"])
        #expect(state.device.name == "Ana's laptop" && state.users.map(\.email) == [user.email])

        _ = try await call("signIn", ["authenticator": "pin"])
        state = try await call("submitPin", ["pin": "27491"])
        #expect(state.userState == "authenticated" && state.authenticatedUser == user.id)
        state = try await call("fetchProfile", nil)
        #expect(state.profile?.email == user.email)

        state = try await call("addBiometric", nil)
        #expect(state.pinPadIntent == "addBiometric")
        state = try await call("submitPin", ["pin": "27491"])
        #expect(state.device.authenticators == ["pin", "biometric"])

        // Number matching: a wrong number is the one try; the right one approves the next request.
        state = try await call("websiteAsk", ["email": .string(user.email), "message": "Sign in to Bank"])
        let first = try #require(state.website?.number)
        state = try await call("pollRequests", nil)
        let request = try #require(state.requests.first)
        #expect(request.message == "Sign in to Bank" && state.requests.count == 1)
        let wrong = first == 99 ? 10 : first + 1
        state = try await call(
            "approve", ["id": .string(request.id), "number": .number(Double(wrong)), "authenticator": "biometric"])
        #expect(state.lastInfoDescription?.contains("not the number") == true)
        state = try await call("websiteRefresh", nil)
        #expect(state.website?.status == "rejected" && state.website?.reason == "number_mismatch")

        state = try await call("websiteAsk", ["email": .string(user.email)])
        let second = try #require(state.website?.number)
        state = try await call("pollRequests", nil)
        let next = try #require(state.requests.first)
        #expect(next.message == "Sign in")
        state = try await call("approve", ["id": .string(next.id), "number": .number(Double(second)), "authenticator": "pin"])
        #expect(state.pinPadIntent == "approve")
        state = try await call("submitPin", ["pin": "27491"])
        #expect(state.lastInfoDescription == "Approved" && state.requests.isEmpty)
        state = try await call("websiteRefresh", nil)
        #expect(state.website?.status == "approved")

        // A computer shows a code; the camera reads it; the PIN lets the computer in.
        state = try await call("computerShowCode", nil)
        #expect(state.computer.status == "waiting")
        #expect(state.computer.codeImage?.hasPrefix("data:image/svg+xml;base64,") == true)
        state = try await call("computerRefresh", nil)
        #expect(state.computer.status == "waiting", "\(String(describing: state.computer.error))")
        state = try await call("scanWithCamera", nil)
        #expect(state.lastInfoDescription?.contains("o sign-in code is in view") == true && state.scannerState == "scanning")
        let payload = try #require(await module.showcase.code?.payload)
        viewfinder.text.withLock { $0 = payload }
        state = try await call("scanWithCamera", nil)
        #expect(state.scannerState == "scanned" && state.scannedSignIn?.origin == live.baseURL.absoluteString)
        _ = try await call("approveScan", ["authenticator": "pin"])
        state = try await call("submitPin", ["pin": "27491"])
        #expect(state.scannerState == "hidden" && state.scannedSignIn == nil)
        // Two refreshes at once (the page's timer and a slow answer): one redeems, the other must
        // not report the spent code as a failure.
        async let one = suite.call(module, "computerRefresh", nil)
        async let other = suite.call(module, "computerRefresh", nil)
        let both: [IdentitySnapshot] = try await [one, other]
        #expect(both.allSatisfy { $0.computer.error == nil }, "\(both.map { $0.computer })")
        state = try await call("getState", nil)
        #expect(state.computer.status == "signedIn" && state.computer.signedInAs == user.email)
        #expect(state.computer.codeImage == nil)
        // A poll that finds nothing says nothing.
        state = try await call("pollRequests", nil)
        #expect(state.requests.isEmpty && state.lastInfoDescription == "\(live.baseURL.absoluteString) is signed in")

        _ = try await call("changePin", nil)
        _ = try await call("submitPin", ["pin": "27491"])
        _ = try await call("submitPin", ["pin": "58302"])
        state = try await call("submitPin", ["pin": "58302"])
        #expect(state.lastInfoDescription == "The PIN is changed")
        _ = try await call("signIn", ["authenticator": "pin"])
        state = try await call("submitPin", ["pin": "58302"])
        #expect(state.userState == "authenticated")

        // "This wasn't me" mutes the account: the website's next ask is refused.
        _ = try await call("websiteAsk", ["email": .string(user.email)])
        state = try await call("refreshRequests", nil)
        let unwanted = try #require(state.requests.first)
        state = try await call("deny", ["id": .string(unwanted.id), "notMe": true])
        #expect(state.lastInfoDescription?.contains("paused") == true)
        state = try await call("websiteAsk", ["email": .string(user.email)])
        #expect(state.website?.error != nil && state.website?.number == nil)

        state = try await call("logout", nil)
        #expect(state.userState == "unauthenticated" && state.session == nil)
        state = try await call("reset", nil)
        #expect(state.userState == "notRegistered" && state.enrollmentState == "unenrolled" && state.users.isEmpty)
    }

    @Test("malformed, hostile and oversized payloads are refused naming the field; other origins are refused")
    func refusals() async throws {
        let client = IdentityClient(
            api: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, clock: ImmediateClock()),
            keychain: IdentityKeychain(store: InMemorySecureStore()))
        let module = IdentityModule(showcase: IdentityShowcase(client: client))
        let long = { (count: Int) in JSONValue.string(String(repeating: "7", count: count)) }
        let cases: [(String, JSONValue?, String)] = [
            ("register", [:], "payload.email"),
            ("register", ["email": long(255), "password": "p", "deviceName": "d"], "payload.email"),
            ("register", ["email": "a@b.c", "password": long(1025), "deviceName": "d"], "payload.password"),
            ("register", ["email": "a@b.c", "password": "p", "deviceName": ""], "payload.deviceName"),
            ("register", ["email": 7, "password": "p", "deviceName": "d"], "payload.email"),
            ("submitPin", ["pin": "12a45"], "payload.pin"),
            ("submitPin", ["pin": "１２３４５"], "payload.pin"),
            ("submitPin", ["pin": long(65)], "payload.pin"),
            ("submitPin", ["pin": 27491], "payload.pin"),
            ("submitPin", ["pin": ""], "payload.pin"),
            ("signIn", ["authenticator": "face"], "payload.authenticator"),
            ("approveScan", ["authenticator": "PIN"], "payload.authenticator"),
            ("approve", ["id": "t", "number": 9, "authenticator": "pin"], "payload.number"),
            ("approve", ["id": "t", "number": 100, "authenticator": "pin"], "payload.number"),
            ("approve", ["id": "t", "number": "42", "authenticator": "pin"], "payload.number"),
            ("approve", ["id": "t", "number": 4.5, "authenticator": "pin"], "payload.number"),
            ("approve", ["id": long(65), "number": 42, "authenticator": "pin"], "payload.id"),
            ("approve", ["id": "", "number": 42, "authenticator": "pin"], "payload.id"),
            ("approve", ["id": "t", "number": 42, "authenticator": "sms"], "payload.authenticator"),
            ("deny", ["id": long(65)], "payload.id"),
            ("deny", ["id": "t", "notMe": "yes"], "payload.notMe"),
            ("scanned", ["text": long(4097)], "payload.text"),
            ("scanned", ["text": ""], "payload.text"),
            ("requestMagicLink", ["email": long(255)], "payload.email"),
            ("completeMagicLink", ["link": long(4097)], "payload.link"),
            ("websiteAsk", ["email": "a@b.c", "message": long(501)], "payload.message"),
            ("websiteAsk", ["email": ""], "payload.email"),
        ]
        for (action, payload, path) in cases {
            let error = await refusal(module, action, payload)
            #expect(error?.code == .invalidPayload, "\(action) \(String(describing: payload)): \(String(describing: error))")
            #expect(error?.details?["path"]?.stringValue == path, "\(action): \(String(describing: error))")
        }
        let array = await refusal(module, "submitPin", ["27491"])
        #expect(array?.code == .invalidPayload)
        let unknown = await refusal(module, "approve", ["id": "not-waiting", "number": 42, "authenticator": "pin"])
        #expect(unknown?.code.rawValue == "identity.unknown_request")
        #expect(unknown?.details?["path"]?.stringValue == "payload.id")
        let noWebsite = await refusal(module, "websiteAsk", ["email": "a@b.c"])
        #expect(noWebsite?.code.rawValue == "identity.no_website")
        let action = await refusal(module, "exportKeys", nil)
        #expect(action?.code == .unknownAction)
        for origin in ["app://launcher", "https://evil.example", "app://identity.evil", "app://identity/", "null", ""] {
            let foreign = await refusal(module, "getState", nil, origin: origin)
            #expect(foreign?.code == .permissionDenied, "\(origin)")
        }
        // A PIN typed while no pad is open does nothing, and nothing reaches the server.
        let state = try await call(module, "submitPin", ["pin": "27491"])
        #expect(state.pinPadState == "hidden" && state.lastInfoDescription == nil)
        // Without a camera the scanner says so instead of failing.
        let camera = try await call(module, "scanWithCamera", nil)
        #expect(camera.lastInfoDescription?.contains("no camera") == true && !camera.hasCamera)
    }

    @Test("the embedded page is the one in Showcase/identity")
    func embeddedPageMatches() throws {
        var root = URL(fileURLWithPath: #filePath)
        while root.pathComponents.count > 1,
            !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        {
            root.deleteLastPathComponent()
        }
        let folder = root.appendingPathComponent("Showcase/identity")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == IdentityShowcasePage.files.keys.sorted())
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(IdentityShowcasePage.files[name] == text, "\(name) differs; run scripts/embed-pages")
        }
    }
}
