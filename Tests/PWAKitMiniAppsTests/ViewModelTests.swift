import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitMiniApps
import PWAKitModules
import Testing

/// Yields to other tasks until `condition` holds (or gives up after many turns); never sleeps.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<10_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

@Suite("View models against a live server")
@MainActor
struct ViewModelTests {
    let key = SigningKey.generate()

    @Test("root routing follows the account: login, launcher, locked, signed out, expired with a notice")
    func routing() async throws {
        try await LivePlatform.run { @MainActor platform in
            let vault: any SecureStore = InMemorySecureStore()
            let account = AccountSession(client: platform.client, vault: vault)
            let root = RootModel(account: account)
            await root.start()
            #expect(root.route == .login)
            let form = SignInModel(account: account)
            await MainActor.run {
                form.email = "ada@example.com"
                form.password = "correct horse battery"
                form.confirmation = "correct horse battery"
            }
            #expect(await form.register())
            #expect(await eventually { if case .launcher = root.route { true } else { false } })
            await account.lock()
            #expect(await eventually { if case .locked = root.route { true } else { false } })
            await account.unlock()
            try await account.signOut()
            #expect(await eventually { root.route == .login })
            // A new launch with the stored session routes straight to the launcher.
            _ = try await account.signIn(email: "ada@example.com", password: "correct horse battery")
            let relaunched = RootModel(account: AccountSession(client: platform.client, vault: vault))
            await relaunched.start()
            #expect(await eventually { if case .launcher = relaunched.route { true } else { false } })
            root.stop()
            relaunched.stop()
        }
    }

    @Test("the sign-in form checks every field before sending and says what the server refused")
    func signInForm() async throws {
        try await LivePlatform.run { @MainActor platform in
            let account = AccountSession(client: platform.client, vault: InMemorySecureStore())
            let form = SignInModel(account: account)
            #expect(await !form.register())
            #expect(form.fieldErrors["email"] == "Enter your email address.")
            #expect(form.fieldErrors["password"] == "Enter your password.")
            await MainActor.run {
                form.email = "not-an-address"
                form.password = "short"
                form.confirmation = "other"
            }
            #expect(await !form.register())
            #expect(
                form.fieldErrors == [
                    "email": "This is not an email address.", "password": "Use at least 10 characters.",
                    "confirmation": "The passwords do not match.",
                ])
            await MainActor.run {
                form.email = "nobody@example.com"
                form.password = "wrong password"
            }
            #expect(await !form.signIn())
            #expect(form.error == "The email address or the password is wrong.")
            #expect(form.fieldErrors.isEmpty)
            #expect(!form.isSubmitting)
        }
    }

    @Test("the launcher lists, installs with progress, shows updates, and falls back to the kept copy offline")
    func launcher() async throws {
        try await LivePlatform.run { @MainActor platform in
            try await platform.createApp("quiz", key: key)
            try await platform.createApp("chess", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("quiz 1")], key: key)
            let (account, _) = try await platform.signedInAccount()
            let directory = temporaryDirectory("launcher")
            let store = try BundleStore(root: directory.appendingPathComponent("store"))
            let catalog = CatalogStore(client: platform.client, tokens: account, directory: directory)
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
            let launcher = LauncherModel(catalog: catalog, store: store, updater: updater)
            #expect(launcher.content == .loading)
            await launcher.refresh()
            #expect(launcher.entries.map(\.id).sorted() == ["chess", "quiz"])
            await launcher.install("quiz")
            #expect(launcher.entries.first { $0.id == "quiz" }?.installedVersion == "1.0.0")
            #expect(launcher.progress.isEmpty)
            try await platform.publish("quiz", version: "1.1.0", files: ["index.html": bytes("quiz 1.1")], key: key)
            await launcher.refresh()
            #expect(launcher.entries.first { $0.id == "quiz" }?.availableVersion == "1.1.0")
            await launcher.install("quiz")
            let quiz = launcher.entries.first { $0.id == "quiz" }
            #expect(quiz?.pendingVersion == "1.1.0")
            #expect(quiz?.availableVersion == nil)
            // Offline: the kept copy, with the banner.
            let offline = LauncherModel(
                catalog: CatalogStore(
                    client: APIClient(baseURL: platform.baseURL, transport: UnreachableTransport()), tokens: account,
                    directory: directory),
                store: store, updater: updater)
            await offline.refresh()
            #expect(offline.isOffline)
            #expect(offline.entries.count == 2)
            // Nothing kept and no server: a failed state, not an empty grid.
            let nothing = LauncherModel(
                catalog: CatalogStore(
                    client: APIClient(baseURL: platform.baseURL, transport: UnreachableTransport()), tokens: account,
                    directory: temporaryDirectory("empty")),
                store: store, updater: updater)
            await nothing.refresh()
            #expect(nothing.content == .failed("The server cannot be reached."))
            // A kept copy that cannot be read at launch: reloading says why instead of showing nothing.
            try Data("not json".utf8).write(to: directory.appendingPathComponent("catalog.json"))
            let damaged = LauncherModel(
                catalog: CatalogStore(client: platform.client, tokens: account, directory: directory), store: store,
                updater: updater)
            await damaged.reload()
            guard case .failed(let reason) = damaged.content else {
                Issue.record("a catalog that cannot be read reloaded as \(damaged.content)")
                return
            }
            #expect(reason.contains("cannot be read"), "\(reason)")
        }
    }

    @Test("a mini-app installs on first open, then is ready from its own document, or rolled back")
    func miniApp() async throws {
        try await LivePlatform.run { @MainActor platform in
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("quiz 1")], key: key)
            let (account, _) = try await platform.signedInAccount()
            let store = try BundleStore(root: temporaryDirectory())
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
            let model = MiniAppModel(appId: "quiz", store: store, updater: updater, readyDeadline: .seconds(5))
            let release = await model.open()
            #expect(release?.manifest.version == "1.0.0")
            #expect(model.state == .loading(version: "1.0.0"))
            #expect(model.documentOpened(PageLoadID(rawValue: 3), origin: "app://quiz") == .startDeadline(.seconds(5)))
            #expect(model.reportedReady(PageLoadID(rawValue: 3), origin: "app://quiz") == .confirm)
            #expect(model.state == .ready(version: "1.0.0"))

            try await platform.publish("quiz", version: "2.0.0", files: ["index.html": bytes("quiz 2 broken")], key: key)
            guard case .available(let v2) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("no update")
            }
            try await updater.install(v2)
            let second = MiniAppModel(appId: "quiz", store: store, updater: updater)
            #expect(await second.open()?.manifest.version == "2.0.0")
            _ = second.documentOpened(PageLoadID(rawValue: 9), origin: "app://quiz")
            guard case .rollBack = second.deadlineElapsed() else { throw TestFailure("no rollback") }
            #expect(await second.state == .rolledBack(version: "2.0.0", reason: "it did not report ready within 10.0 seconds"))
            #expect(try store.activeRelease(appId: "quiz")?.manifest.version == "1.0.0")
        }
    }

    @Test("settings show sizes, clear an app, change its channel, and sign out")
    func settings() async throws {
        try await LivePlatform.run { @MainActor platform in
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("0123456789")], key: key)
            let (account, vault) = try await platform.signedInAccount(email: "sam@example.com")
            let directory = temporaryDirectory("settings")
            let store = try BundleStore(root: directory.appendingPathComponent("store"))
            let catalog = CatalogStore(client: platform.client, tokens: account, directory: directory)
            _ = try await catalog.refresh()
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
            guard case .available(let release) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("no release")
            }
            try await updater.install(release)
            let settings = SettingsModel(account: account, store: store, catalog: catalog)
            await settings.load()
            #expect(settings.user?.email == "sam@example.com")
            #expect(settings.bytesByApp["quiz"] == 10)
            await settings.setChannel("beta", for: "quiz")
            #expect(try store.app("quiz").channel == "beta")
            await settings.setChannel("Not A Channel", for: "quiz")
            #expect(settings.error?.contains("is not a channel") == true)
            await settings.clear("quiz")
            #expect(settings.bytesByApp["quiz"] == nil)
            #expect(settings.totalBytes == 0)
            await settings.signOut()
            #expect(settings.user == nil)
            #expect(try await vault.value(for: "session", app: AccountSession.secureStoreApp) == nil)
            #expect(try await catalog.cached() == nil)
        }
    }
}
