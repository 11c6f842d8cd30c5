import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitFiles
import PWAKitHost
import PWAKitIdentity
import PWAKitLinuxHost
import PWAKitModules

/// `pwakit identity showcase`: the mobile-identity showcase in a window — this machine as the
/// enrolled device on the left, another screen (a website that asks, a computer signing in with a QR
/// code) on the right — or, with `--tour`, a scripted walk with screenshots.
struct IdentityShowcaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showcase",
        abstract: "Open the mobile-identity showcase: every flow of the SDK on its interactors, in a window.",
        discussion: """
            The left column is this device (enrol with a PIN, sign in, biometrics, requests with \
            number matching, sign-in codes, links by email); the right one is another screen: a \
            website that asks (with --credential, an app backend's) and a computer that signs in \
            with a QR code, which "Read with the camera" reads off the window with zbarimg. The device's \
            identity is kept in --store, as for the other identity commands; biometrics are simulated.
            """)

    @OptionGroup var options: IdentityOptions

    @Option(help: "An app backend's credential as ID:SECRET, to play a website that asks (else PWAKIT_APP_CREDENTIAL).")
    var credential: String?

    @Option(help: "A scripted walk (JSON, as `pwakit launcher --tour`): run it, print a line per step, exit.")
    var tour: String?

    @Option(help: "Window size, WIDTHxHEIGHT.")
    var size = "1180x900"

    @Option(name: .customLong("data-dir"), help: "The window's website data (default: a folder in --store).")
    var dataDirectory: String?

    func validate() throws {
        guard parsedSize != nil else { throw ValidationError("--size must be WIDTHxHEIGHT, each 200…4096") }
        if let pair = credentialPair, pair.id.isEmpty || pair.secret.isEmpty {
            throw ValidationError("--credential must be ID:SECRET")
        }
    }

    var parsedSize: (Int, Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (200...4096).contains($0) }) else { return nil }
        return (parts[0], parts[1])
    }

    var credentialPair: (id: String, secret: String)? {
        guard let pair = credential ?? ProcessInfo.processInfo.environment["PWAKIT_APP_CREDENTIAL"], !pair.isEmpty else {
            return nil
        }
        guard let colon = pair.firstIndex(of: ":") else { return ("", "") }
        return (String(pair[..<colon]), String(pair[pair.index(after: colon)...]))
    }

    func run() throws {
        #if WebKitGTK
            // NB: a bad tour is refused before the re-run under Xvfb: no display is needed to say so.
            let script = try tour.map(HostTour.load)
            if tour != nil, Headless.needsDisplay() { throw ExitCode(Headless.rerunUnderXvfb()) }
            let store: any SecureStore
            let data =
                dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? options.storeDirectory.appendingPathComponent("showcase", isDirectory: true)
            do {
                store = try options.secureStore()
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            } catch {
                Console.writeError("error: cannot open the identity store: \(error)")
                throw ExitCode(2)
            }
            let server = URL(string: options.server)!
            var hostOptions = HostOptions()
            hostOptions.dataDirectory = data
            if let (width, height) = parsedSize {
                hostOptions.width = width
                hostOptions.height = height
            }
            if script != nil { hostOptions.dialogs = .accept }
            let setup = IdentityShowcaseSetup(
                server: server, store: store, dataDirectory: data, options: hostOptions, tour: script,
                credential: credentialPair, simulatedBiometrics: options.simulatedBiometrics)
            let status = MainActor.assumeIsolated { setup.run() }
            throw ExitCode(status)
        #else
            throw HostRunOptions.hostUnavailable()
        #endif
    }
}

#if WebKitGTK
    /// What `pwakit identity showcase` runs with.
    struct IdentityShowcaseSetup {
        let server: URL
        let store: any SecureStore
        let dataDirectory: URL
        let options: HostOptions
        let tour: HostTour?
        let credential: (id: String, secret: String)?
        let simulatedBiometrics: Bool

        /// Opens the window and runs until it closes (or the tour ends); the exit status.
        @MainActor
        func run() -> Int32 {
            let page = dataDirectory.appendingPathComponent("showcase-page", isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
                for (name, text) in IdentityShowcasePage.files {
                    try DurableFile.replace(page.appendingPathComponent(name).path, with: Array(text.utf8))
                }
            } catch {
                Console.writeError("error: cannot write the showcase's page to \(page.path): \(error)")
                return 2
            }
            let app = IdentityShowcaseApp(setup: self)
            return app.run(page: page)
        }
    }

    /// The showcase's window: one page over the `identity` module.
    @MainActor
    final class IdentityShowcaseApp: TourStage {
        static let origin = "app://identity"
        let setup: IdentityShowcaseSetup
        let shell: ShellWindow
        var home: LinuxHost?

        init(setup: IdentityShowcaseSetup) {
            self.setup = setup
            shell = ShellWindow(title: "PWAKit Identity", width: setup.options.width, height: setup.options.height)
        }

        func output(_ object: [String: JSONValue]) {
            setup.options.output(JSONSerializer.serialize(.object(object)))
        }

        func waitForApp(_ appId: String, timeout: Duration) async -> String? { "the showcase opens no apps" }

        func pressBack() -> String? { "the showcase has no back button" }

        /// The camera on Linux: the window, read with `zbar`; it keeps looking for five seconds, as a
        /// camera does until a code is in view.
        func readWindow(with zbar: String) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(5)
            while true {
                if let text = try await readWindowOnce(with: zbar) { return text }
                guard ContinuousClock.now < deadline else { throw IdentityError(.invalidCode, "no sign-in code is in view") }
                try await Task.sleep(for: .milliseconds(300))
            }
        }

        /// The code in the window now, if there is one.
        func readWindowOnce(with zbar: String) async throws -> String? {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-camera-\(UUID().uuidString).png")
                .path
            defer { try? FileManager.default.removeItem(atPath: path) }
            guard await shell.screenshot(to: path) != nil else {
                throw IdentityError(.invalidCode, "the camera could not read the window")
            }
            return try? await Task.detached { try IdentityScanCommand.decode(image: path, zbar: zbar) }.value
        }

        func run(page: URL) -> Int32 {
            let api = APIClient(baseURL: setup.server)
            let device = setup.simulatedBiometrics ? LinuxHost.simulatedDevice(options: setup.options) : nil
            let client = IdentityClient(api: api, keychain: IdentityKeychain(store: setup.store), biometrics: device)
            let website = setup.credential.map { WebsiteRequester(api: api, credentialId: $0.id, secret: $0.secret) }
            // NB: without zbarimg there is no camera: the page then offers only pasting a code's text.
            var camera: (@Sendable () async throws -> String)?
            if let zbar = IdentityScanCommand.zbarPath {
                camera = { [weak self] () async throws -> String in
                    guard let self else { throw IdentityError(.invalidCode, "the window is closed") }
                    return try await self.readWindow(with: zbar)
                }
            }
            let showcase = IdentityShowcase(
                client: client, magicLinks: MagicLinkClient(api: api, store: setup.store), camera: camera, website: website)
            let configuration = PWAConfiguration(
                app: AppSection(name: "PWAKit Identity", bundleId: "pwakit.identity", startUrl: "\(Self.origin)/index.html"),
                origins: OriginsSection(allowed: [], grants: ["identity": ["identity"]]))
            let launch = AppLaunch(configuration: configuration, bundleRoot: page, startURL: configuration.app.startUrl)
            let home: LinuxHost
            do {
                home = try LinuxHost(launch: launch, options: setup.options, modules: [IdentityModule(showcase: showcase)])
            } catch {
                Console.writeError("error: \(error)")
                return 2
            }
            self.home = home
            return runWindow(home: home) { await self.start() }
        }

        func start() async {
            output(["event": "showcase", "server": .string(setup.server.absoluteString)])
            if let tour = setup.tour {
                let runner = HostTourRunner(app: self, tour: tour)
                shell.stop(await runner.run())
            }
        }
    }
#endif
