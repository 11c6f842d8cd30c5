import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitFlags
import PWAKitHost
import PWAKitMiniApps
import PWAKitModules

#if WebKitGTK
    import PWAKitLinuxHost
#endif

/// `pwakit miniapp open APP`: opens an installed mini-app from the store in a window, signed in,
/// under the ready rule.
struct MiniAppOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        // NB: run as the root command (it keeps the main thread for GTK), so usage and help name the whole command.
        _superCommandName: "pwakit miniapp",
        abstract: "Open an installed mini-app from the store: its own origin and website data, signed in, under the ready rule.",
        discussion: """
            The release the store has active (a pending one becomes active first) is served as \
            app://<appId>/ from the store. Its bridge grants are the permissions its catalog entry \
            asks for (from the copy `pwakit miniapp list` keeps), plus `lifecycle`, `session`, \
            `platform` and `flags`. With --server and --email the person is signed in and the `session` module \
            hands out launch codes; without them (or offline) it answers session.not_signed_in. A \
            release on probation must call PWAKit.ready() within --ready-timeout seconds of its first \
            document, or it is rolled back and marked bad (exit status 6). Other exit statuses as \
            for `pwakit run`.
            """)

    @Argument(help: "The app id.")
    var appId: String

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The platform server's base URL, to sign in.")
    var server: String?

    @Option(help: "The account's email address, to sign in.")
    var email: String?

    @Option(help: "The password (default: the PWAKIT_PASSWORD environment variable).")
    var password: String?

    @Option(name: .customLong("ready-timeout"), help: "Seconds a release on probation has to report ready.")
    var readyTimeout = 10

    @Option(
        name: .customLong("allow"),
        help: "An origin pattern the mini-app's pages may load or frame (its pages get no module); repeatable.")
    var allowed: [String] = []

    @Option(
        name: .customLong("trust-key"),
        help:
            "A pinned publisher key (base64); with it and a signed-in account, the launch checks for an update and installs it for the next launch; repeatable."
    )
    var trustKeys: [String] = []

    @Flag(
        name: .customLong("seed-globals"),
        help:
            "Give this app the seed's window.NATIVE_APP, NATIVE_PLATFORM, nativeFaceID() and nativeApplePay() (mapped onto biometrics and payments)."
    )
    var seedGlobals = false

    @OptionGroup var host: HostRunOptions

    @OptionGroup var merchant: MerchantOptions

    func validate() throws {
        guard (1...600).contains(readyTimeout) else { throw ValidationError("--ready-timeout must be 1…600 seconds") }
        if (server == nil) != (email == nil) { throw ValidationError("--server and --email go together") }
        if let server, URL(string: server)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--server must be an http or https URL")
        }
        for (index, key) in trustKeys.enumerated() where (try? VerifyingKey(base64: key)) == nil {
            throw ValidationError("--trust-key #\(index + 1) is not the base64 of a 32-byte Ed25519 public key")
        }
        for pattern in allowed where (try? OriginPattern(parsing: pattern)) == nil {
            throw ValidationError("--allow \(pattern) is not an origin pattern (example.com, *.example.com, 127.0.0.1:8080)")
        }
    }

    func run() throws {
        #if WebKitGTK
            // NB: before the launch is prepared: a run re-executed under Xvfb prepares it once, in the child.
            if host.scripted, Headless.needsDisplay() { throw ExitCode(Headless.rerunUnderXvfb()) }
        #endif
        let store: BundleStore
        let release: LaunchableRelease
        do {
            store = try storeOptions.open()
            guard let active = try store.prepareLaunch(appId: appId) else {
                let bad = try store.app(appId).bad
                throw CommandFailure(
                    status: .unreadable, code: MiniAppError.Code.notInstalled.rawValue,
                    message: bad.isEmpty
                        ? "\(appId) is not installed in \(store.root.path); run `pwakit miniapp install \(appId)`"
                        : "\(appId) has no release left to open: \(bad.count) failed to become ready and were rolled back")
            }
            release = active
        } catch let error as MiniAppError {
            // NB: a store that cannot be opened or read is input that cannot be read (exit status 2).
            throw CommandFailure.report(CommandFailure(status: .unreadable, code: error.codeName, message: error.message))
        } catch let failure as CommandFailure {
            throw CommandFailure.report(failure)
        }
        let account = signIn()
        if let account, !trustKeys.isEmpty { checkForUpdate(store: store, release: release, account: account) }
        let cached: CatalogSnapshot?
        do {
            cached = try Blocking.run { [store] in
                try await CatalogStore(
                    client: APIClient(baseURL: store.root), tokens: NoToken(),
                    directory: store.root.appendingPathComponent("catalog")
                ).cached()
            }
        } catch {
            // NB: the app still opens, with no permission the catalog would grant (never more), and says why.
            Console.writeError("warning: \(error); \(appId) opens with no permissions from the catalog")
            cached = nil
        }
        let entry = cached?.apps.first { $0.id == appId }
        var extra = host.report ? ["report"] : []
        if seedGlobals { extra += ["biometrics.authenticate", "payments.request"] }
        let configuration = MiniAppConfiguration.make(
            appId: appId, name: entry?.name ?? appId, entryPath: release.entryPath, permissions: entry?.permissions ?? [],
            extraGrants: extra, allowed: allowed, merchant: merchant.section)
        var launch = AppLaunch(
            configuration: configuration, bundleRoot: nil, startURL: configuration.app.startUrl,
            release: ReleaseFiles(manifest: release.manifest) { URL(fileURLWithPath: store.blobPath($0)) })
        launch.version = release.manifest.version
        launch.build = String(release.bundleHash.prefix(12))
        let guardian = LaunchGuard(store: store, release: release, deadline: .seconds(readyTimeout))
        let session = SessionModule(appId: appId, bundleHash: release.bundleHash, account: account)
        let flags = FlagsModule(store: MiniAppFlags.store(for: appId, in: store, account: account))
        #if WebKitGTK
            var options = host.hostOptions()
            if seedGlobals { options.pageScripts.append(SeedEraGlobals.script(platform: "linux")) }
            let status = MainActor.assumeIsolated { () -> Int32 in
                HostRunOptions.openWindow(launch, options: options, extraModules: [session, flags]) { window in
                    MiniAppWindow(window: window, guardian: guardian, account: account, output: options.output).attach()
                    options.output(
                        Self.line([
                            "event": "miniapp", "appId": .string(appId), "version": .string(release.manifest.version),
                            "bundleHash": .string(release.bundleHash), "onProbation": .bool(release.onProbation),
                            "signedIn": .bool(account != nil),
                        ]))
                }
            }
            throw ExitCode(status)
        #else
            throw HostRunOptions.hostUnavailable()
        #endif
    }

    /// Signs in when asked to; an unreachable server or a refused sign-in opens the app signed out, with a warning.
    private func signIn() -> AccountSession? {
        guard let server, let email, let url = URL(string: server) else { return nil }
        guard let password = password ?? ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"] else {
            Console.writeError("warning: no password (--password or PWAKIT_PASSWORD); opening signed out")
            return nil
        }
        do {
            return try Blocking.run {
                let account = AccountSession(client: APIClient(baseURL: url), vault: InMemorySecureStore())
                try await account.signIn(email: email, password: password)
                return account
            }
        } catch {
            Console.writeError("warning: cannot sign in (\(error)); opening signed out")
            return nil
        }
    }

    /// Checks the app's channel and installs a newer release for the next launch (this launch keeps
    /// the release it prepared); a failed check is reported and the launch goes on.
    private func checkForUpdate(store: BundleStore, release: LaunchableRelease, account: AccountSession) {
        let trust = PublisherTrust(keys: trustKeys.compactMap { try? VerifyingKey(base64: $0) })
        let updater = Updater(client: account.client, store: store, trust: trust, tokens: account)
        let appId = self.appId
        let channel = release.manifest.channel
        do {
            let installed = try Blocking.run { () -> String? in
                for try await event in updater.update(appId: appId, channel: channel, activation: .nextLaunch) {
                    if case .installed(let release, _) = event { return release.manifest.version }
                }
                return nil
            }
            if let installed {
                Console.write(
                    Self.line([
                        "event": "updateInstalled", "appId": .string(appId), "version": .string(installed),
                        "activates": "nextLaunch",
                    ]))
            }
        } catch {
            Console.write(Self.line(["event": "updateCheckFailed", "appId": .string(appId), "message": .string("\(error)")]))
        }
    }

    static func line(_ object: [String: JSONValue]) -> String { JSONSerializer.serialize(.object(object)) }

    /// A token source for reading the kept catalog, which never asks the server.
    private struct NoToken: AccessTokenSource {
        func accessToken() async throws -> String { throw APIClientError(.notSignedIn, "offline") }
    }
}
