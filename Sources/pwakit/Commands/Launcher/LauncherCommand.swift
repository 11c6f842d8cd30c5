import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitErrors
import PWAKitFiles
import PWAKitHost
import PWAKitMiniApps
import PWAKitModules
import PWAKitRouting
import PWAKitShare

#if WebKitGTK
    import PWAKitLinuxHost
#endif

/// `pwakit launcher --server URL`: the launcher people use. A window whose launcher page
/// (`app://launcher/`, shipped inside the binary) signs in, lists the catalog, installs and
/// updates mini-apps and opens them, each at `app://<appId>/` with its own website data, under
/// a native bar back to the launcher, signed in through `session`.
struct LauncherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launcher",
        // NB: run as the root command (it keeps the main thread for GTK), so usage and help name the whole command.
        _superCommandName: "pwakit",
        abstract: "Open the mini-app launcher: sign in, pick a mini-app, run it — offline too.",
        discussion: """
            The session is kept (Secret Service, else an encrypted file under --data-dir) so the \
            next start opens the grid at once, online or not. Releases are verified against the \
            publisher keys pinned with --trust-key before they are installed. A release on \
            probation must call PWAKit.ready() within --ready-timeout seconds or it is rolled back \
            and the launcher says so. A link (myapp://app/<appId>/<path>, or a universal link with \
            --config) opens that mini-app at that page once signed in; a desktop entry from \
            `pwakit install-desktop` passes it. Without --server the server of the last run \
            (kept in the data directory) is used. --tour runs a scripted walk (see docs/launcher.md) and exits: \
            0 when every step passed, 3 when one did not. Other exit statuses as for `pwakit run`.
            """)

    @Argument(help: ArgumentHelp("A link into the platform: myapp://app/<appId>/<path>, or a universal link.", valueName: "link"))
    var link: String?

    @Option(help: "The platform server's base URL, e.g. http://127.0.0.1:8080 (default: the last run's).")
    var server: String?

    @Option(
        help: "The app's pwa-config.json (or its directory): its identifiers name the scheme and universal-link hosts of links.")
    var config: String?

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("data-dir"),
        help: "The directory holding website data and the kept session (default: ~/.local/share/pwakit/launcher).")
    var dataDirectory: String?

    @Option(name: .customLong("trust-key"), help: "A pinned publisher key (base64); repeatable.")
    var trustKeys: [String] = []

    @Option(help: "Sign in as this account at start when no session is kept (password: PWAKIT_PASSWORD).")
    var email: String?

    @Option(name: .customLong("ready-timeout"), help: "Seconds a release on probation has to report ready.")
    var readyTimeout = 10

    @Option(
        name: .customLong("relock-after"),
        help: "With biometric unlock on: seconds in the background (window minimised) before unlocking again.")
    var relockAfter = 300

    @Option(help: ArgumentHelp("A scripted tour to run, then exit.", valueName: "file"))
    var tour: String?

    @OptionGroup var merchant: MerchantOptions

    @Option(help: "Window size, WIDTHxHEIGHT.")
    var size: String = "1100x760"

    @Option(
        help: ArgumentHelp(
            "A JSON script for the simulated device the mini-apps use (biometrics, payments, …).", valueName: "file"))
    var simulate: String?

    func validate() throws {
        if let server, !Self.isServerURL(server) {
            throw ValidationError("--server must be an http or https URL, e.g. http://127.0.0.1:8080")
        }
        for (index, key) in trustKeys.enumerated() where (try? VerifyingKey(base64: key)) == nil {
            throw ValidationError("--trust-key #\(index + 1) is not the base64 of a 32-byte Ed25519 public key")
        }
        guard (1...600).contains(readyTimeout) else { throw ValidationError("--ready-timeout must be 1…600 seconds") }
        guard (0...86_400).contains(relockAfter) else { throw ValidationError("--relock-after must be 0…86400 seconds") }
        guard parsedSize != nil else { throw ValidationError("--size must be WIDTHxHEIGHT, got \(size)") }
    }

    var parsedSize: (Int, Int)? { HostRunOptions.parseSize(size) }

    static func isServerURL(_ text: String) -> Bool {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else { return false }
        return true
    }

    /// Where the last `--server` is kept, so a link opened from the desktop finds it.
    var serverFile: URL { dataPath.appendingPathComponent("server") }

    /// `--server`, kept for the next run; else the kept one.
    func resolveServer() throws -> URL {
        if let server, let url = URL(string: server) {
            do {
                try FileManager.default.createDirectory(at: dataPath, withIntermediateDirectories: true)
                try DurableFile.replace(serverFile.path, with: Data(server.utf8))
            } catch {
                // NB: this run has its server; only a later run without --server would miss it.
                Console.writeError("warning: --server is not kept for the next run: \(error)")
            }
            return url
        }
        let kept: Data?
        do { kept = try DurableFile.contents(of: serverFile.path) } catch {
            throw CommandFailure(
                status: .unreadable, code: "launcher.server_unreadable",
                message: "no --server given, and the one kept in \(serverFile.path) cannot be read (\(error)): pass --server")
        }
        guard let kept else {
            throw CommandFailure(
                status: .unreadable, code: "launcher.no_server",
                message: "no --server given and none kept in \(serverFile.path): pass --server once")
        }
        let text = String(decoding: kept, as: UTF8.self)
        guard Self.isServerURL(text), let url = URL(string: text) else {
            throw CommandFailure(
                status: .unreadable, code: "launcher.server_invalid",
                message: "no --server given, and \(serverFile.path) holds no http(s) URL: pass --server")
        }
        return url
    }

    /// The route `link` names, read under `--config`'s identifiers (or the link's own scheme).
    func resolveRoute() throws -> AppRoute? {
        guard let link else { return nil }
        do {
            let configuration: LinkConfiguration
            if let config {
                let file = try ConfigurationLoader.locate(URL(fileURLWithPath: config))
                configuration = try AppLinks.configuration(AppIdentifiers(try ConfigurationLoader.load(from: file)))
            } else {
                configuration = try AppLinks.configuration(forLink: link)
            }
            return try AppRoute.router(configuration: configuration).route(from: link)
        } catch let error as RoutingError {
            throw CommandFailure(
                status: .unreadable, code: error.code.rawValue,
                message: "link: \(error.field.map { "\($0): " } ?? "")\(error.message) (\(error.code))")
        }
    }

    @Option(
        help:
            "The share outbox the page's `posts` module sends from (default: as `pwakit share`: shares/ in --config's app group, or $XDG_DATA_HOME/pwakit/shares)."
    )
    var outbox: String?

    var dataPath: URL {
        if let dataDirectory { return URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: data + "/pwakit/launcher", isDirectory: true)
    }

    func run() throws {
        #if WebKitGTK
            // NB: a bad tour is refused before the re-run under Xvfb: no display is needed to say so.
            let script = try tour.map(HostTour.load)
            if tour != nil, Headless.needsDisplay() { throw ExitCode(Headless.rerunUnderXvfb()) }
            let server: URL
            let route: AppRoute?
            do {
                (server, route) = (try resolveServer(), try resolveRoute())
            } catch let failure as CommandFailure {
                throw CommandFailure.report(failure)
            } catch let error as any CodedError {
                throw CommandFailure.report(CommandFailure(error))
            }
            var simulation: SimulationScript?
            if let simulate {
                guard let data = FileManager.default.contents(atPath: simulate) else {
                    Console.writeError("error: --simulate \(simulate): cannot read the file")
                    throw ExitCode(2)
                }
                do {
                    simulation = try SimulationScript.parse(data)
                } catch {
                    Console.writeError("error: --simulate \(simulate): \(error.message)")
                    throw ExitCode(2)
                }
            }
            let store: BundleStore
            do {
                store = try storeOptions.open()
                try FileManager.default.createDirectory(at: dataPath, withIntermediateDirectories: true)
            } catch {
                Console.writeError("error: cannot open the store: \(error)")
                throw ExitCode(2)
            }
            let shares: ShareOutbox
            do {
                shares = try ShareOutbox(directory: try ShareCommand.outboxDirectory(config: config, outbox: outbox))
            } catch {
                Console.writeError("error: cannot open the share outbox: \(error)")
                throw ExitCode(2)
            }
            var options = HostOptions()
            options.dataDirectory = dataPath
            options.simulation = simulation
            if let (width, height) = parsedSize {
                options.width = width
                options.height = height
            }
            if script != nil { options.dialogs = .accept }
            var setup = LauncherSetup(
                server: server, store: store, dataDirectory: dataPath,
                trust: PublisherTrust(keys: trustKeys.compactMap { try? VerifyingKey(base64: $0) }),
                readyDeadline: .seconds(readyTimeout), options: options, email: email,
                password: ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"], tour: script,
                relockAfter: .seconds(relockAfter), merchant: merchant.section, outbox: shares)
            setup.route = route
            let status = MainActor.assumeIsolated { setup.run() }
            throw ExitCode(status)
        #else
            throw HostRunOptions.hostUnavailable()
        #endif
    }
}
