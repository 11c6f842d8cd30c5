import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitMiniApps
import PWAKitModules
import PWAKitTesting
import Testing

@Suite("launcher: the controller and its privileged bridge module, against a live server")
@MainActor
struct LauncherControllerTests {
    let key = SigningKey.generate()

    func context(origin: String) throws -> ModuleContext {
        let configuration = try ConfigurationLoader.load(
            from: Data(
                #"{"version":1,"app":{"name":"PWAKit","bundleId":"pwakit.launcher","startUrl":"app://launcher/"},"origins":{"allowed":["launcher"]}}"#
                    .utf8))
        return ModuleContext(
            callID: "1", caller: BridgeCaller(origin: origin, pageLoad: PageLoadID(rawValue: 1), grant: .all),
            app: AppIdentity(name: "PWAKit", bundleID: "pwakit.launcher"), configuration: configuration, emit: { _ in })
    }

    func controller(_ platform: LivePlatform, vault: any SecureStore = InMemorySecureStore()) throws -> LauncherController {
        let directory = temporaryDirectory("launcher")
        let account = AccountSession(client: platform.client, vault: vault)
        return LauncherController(
            account: account, store: try BundleStore(root: directory.appendingPathComponent("store")),
            trust: PublisherTrust(keys: [key.verifyingKey]), catalogDirectory: directory.appendingPathComponent("catalog"))
    }

    func call(_ module: LauncherModule, _ action: String, _ payload: JSONValue? = nil, origin: String = "app://launcher")
        async throws -> LauncherSnapshot
    {
        let answer = try await module.handle(action: action, payload: payload, context: try context(origin: origin))
        return try #require(answer).decode(LauncherSnapshot.self)
    }

    @Test("with no catalog to look in (offline, none kept), opening an app is launcher.failed, not the page's unknown app")
    func noCatalogIsNotTheCallersFault() async throws {
        try await LivePlatform.run { @MainActor platform in
            let (_, vault) = try await platform.signedInAccount(email: "offline@example.com")
            // NB: the same server's address, unreachable: the kept session restores, the catalog cannot load.
            let offline = APIClient(baseURL: platform.baseURL, transport: UnreachableTransport())
            let directory = temporaryDirectory("launcher")
            let launcher = LauncherController(
                account: AccountSession(client: offline, vault: vault),
                store: try BundleStore(root: directory.appendingPathComponent("store")),
                trust: PublisherTrust(keys: [key.verifyingKey]), catalogDirectory: directory.appendingPathComponent("catalog"))
            await launcher.start()
            #expect(launcher.snapshot().route == "launcher")
            let module = LauncherModule(controller: launcher)
            do {
                _ = try await call(module, "open", ["appId": "quiz"])
                Issue.record("open answered without a catalog")
            } catch let error as BridgeError {
                #expect(error.code.rawValue == "launcher.failed", "\(error)")
                #expect(error.details?["path"] == nil, "\(error)")
                #expect(error.message.contains("cannot be reached"), "\(error.message)")
            }
        }
    }

    @Test("sign in, the grid, open (install first), a snapshot event on every change, sign out back to login")
    func signInListOpenSignOut() async throws {
        try await LivePlatform.run { @MainActor platform in
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("<p>quiz</p>")], key: key)
            _ = try await platform.signedInAccount(email: "ada@example.com")
            let launcher = try controller(platform)
            var events: [LauncherSnapshot] = []
            launcher.onChange = { events.append($0) }
            var presented: [(String, String)] = []
            launcher.present = { app, release, _ in presented.append((app.appId, release.manifest.version)) }
            await launcher.start()
            #expect(launcher.snapshot().route == "login")
            let module = LauncherModule(controller: launcher)

            let refused = try await call(module, "signIn", ["email": "ada@example.com", "password": "wrong password!"])
            #expect(refused.route == "login")
            #expect(refused.signIn.error == "The email address or the password is wrong.")
            let blank = try await call(module, "signIn", ["email": "", "password": ""])
            #expect(blank.signIn.fieldErrors.map(\.field) == ["email", "password"])

            let signedIn = try await call(module, "signIn", ["email": "ada@example.com", "password": "correct horse battery"])
            #expect(signedIn.route == "launcher")
            #expect(signedIn.user?.email == "ada@example.com")
            #expect(signedIn.catalog.status == "apps")
            #expect(signedIn.catalog.apps.map(\.id) == ["quiz"])
            #expect(signedIn.catalog.apps.first?.installedVersion == nil)

            let opened = try await call(module, "open", ["appId": "quiz"])
            #expect(presented.map(\.0) == ["quiz"])
            #expect(presented.map(\.1) == ["1.0.0"])
            #expect(opened.running?.appId == "quiz")
            #expect(opened.running?.shown == true)
            #expect(opened.running?.state == "loading")
            #expect(opened.catalog.apps.first?.installedVersion == "1.0.0")
            #expect(opened.storage.totalBytes > 0)
            // A second open while one is shown does nothing.
            _ = try await call(module, "open", ["appId": "quiz"])
            #expect(presented.count == 1)
            launcher.closeApp()
            #expect(await eventually { launcher.snapshot().running?.shown == false })

            // The events carried the route change and the install.
            #expect(await eventually { events.contains { $0.route == "launcher" } })
            #expect(events.contains { $0.catalog.apps.first?.installedVersion == "1.0.0" })

            let out = try await call(module, "signOut")
            #expect(out.route == "login")
            #expect(out.user == nil)
            #expect(out.running == nil)
        }
    }

    @Test("only app://launcher is answered; unknown apps, bad channels and oversized fields name the field")
    func refusals() async throws {
        try await LivePlatform.run { @MainActor platform in
            try await platform.createApp("quiz", key: key, channels: ["stable", "beta"])
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("q")], key: key)
            _ = try await platform.signedInAccount(email: "grace@example.com")
            let launcher = try controller(platform)
            await launcher.start()
            await launcher.signIn(email: "grace@example.com", password: "correct horse battery")
            let module = LauncherModule(controller: launcher)
            for origin in ["app://quiz", "https://launcher.example.com", "app://launcher.evil", "null"] {
                await #expect(throws: BridgeError.self, "\(origin)") {
                    _ = try await call(module, "getState", origin: origin)
                }
                do {
                    _ = try await call(module, "signOut", origin: origin)
                    Issue.record("signOut answered \(origin)")
                } catch let error as BridgeError {
                    #expect(error.code == .permissionDenied)
                }
            }
            #expect(launcher.snapshot().route == "launcher")

            func refusal(_ action: String, _ payload: JSONValue) async -> BridgeError? {
                do {
                    _ = try await call(module, action, payload)
                    return nil
                } catch { return error as? BridgeError }
            }
            let unknown = await refusal("open", ["appId": "nope"])
            #expect(unknown?.code.rawValue == "launcher.unknown_app")
            #expect(unknown?.details?["path"]?.stringValue == "payload.appId")
            let channel = await refusal("setChannel", ["appId": "quiz", "channel": "nightly"])
            #expect(channel?.code.rawValue == "launcher.invalid_argument")
            #expect(channel?.details?["path"]?.stringValue == "payload.channel")
            let huge = await refusal("signIn", ["email": .string(String(repeating: "a", count: 300)), "password": "x"])
            #expect(huge?.code == .invalidPayload)
            #expect(huge?.details?["path"]?.stringValue == "payload.email")
            let empty = await refusal("install", ["appId": ""])
            #expect(empty?.code == .invalidPayload)
            let missing = await refusal("open", [:])
            #expect(missing?.code == .invalidPayload)
            #expect(missing?.details?["path"]?.stringValue == "payload.appId")
            let wrongType = await refusal("setChannel", ["appId": "quiz", "channel": 7])
            #expect(wrongType?.details?["path"]?.stringValue == "payload.channel")

            let beta = try await call(module, "setChannel", ["appId": "quiz", "channel": "beta"])
            #expect(beta.catalog.apps.first?.channel == "beta")
            #expect(try LauncherModule.schema().actions.count == LauncherModule.supportedActions.count)
        }
    }

    @Test("a stored session opens the grid at the next start, offline too, with the banner")
    func restoredOffline() async throws {
        let vault: any SecureStore = InMemorySecureStore()
        let directory = temporaryDirectory("restored")
        let store = try BundleStore(root: directory.appendingPathComponent("store"))
        var baseURL: URL?
        try await LivePlatform.run { @MainActor platform in
            baseURL = platform.baseURL
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("q")], key: key)
            _ = try await platform.signedInAccount(email: "lin@example.com")
            let launcher = LauncherController(
                account: AccountSession(client: platform.client, vault: vault), store: store,
                trust: PublisherTrust(keys: [key.verifyingKey]), catalogDirectory: directory.appendingPathComponent("catalog"))
            await launcher.start()
            await launcher.signIn(email: "lin@example.com", password: "correct horse battery")
            try await launcher.install("quiz")
            #expect(launcher.snapshot().catalog.apps.first?.installedVersion == "1.0.0")
        }
        // The server is gone now.
        let url = try #require(baseURL)
        let offline = LauncherController(
            account: AccountSession(client: APIClient(baseURL: url, clock: ImmediateClock()), vault: vault), store: store,
            trust: PublisherTrust(keys: [key.verifyingKey]), catalogDirectory: directory.appendingPathComponent("catalog"))
        var presented: [String] = []
        offline.present = { app, _, _ in presented.append(app.appId) }
        await offline.start()
        let snapshot = offline.snapshot()
        #expect(snapshot.route == "launcher")
        #expect(snapshot.catalog.offline)
        #expect(snapshot.catalog.apps.first?.installedVersion == "1.0.0")
        try await offline.open("quiz")
        #expect(presented == ["quiz"])
    }

    @Test("the embedded page is the page in Launcher/")
    func embeddedPage() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Launcher")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == LauncherPage.files.keys.sorted())
        for name in names {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            #expect(LauncherPage.files[name] == text, "\(name) differs; run scripts/embed-pages")
        }
    }
}
