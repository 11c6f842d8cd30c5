import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitHost
import PWAKitModules
import PWAKitRouting

#if WebKitGTK
    import PWAKitLinuxHost
#endif

/// `pwakit run <config | directory | url>`: opens the app in a WebKitGTK window.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        // NB: run as the root command (it keeps the main thread for GTK), so usage and help name the whole command.
        _superCommandName: "pwakit",
        abstract: "Open an app in a window: a pwa-config.json, a directory holding one, or a URL.",
        discussion: """
            With --screenshot the app is drawn off screen (under Xvfb when there is no display), \
            the PNG is saved once the page has painted after loading (or, with --wait-for ready, \
            once it calls PWAKit.ready()), and the command exits. With --report the page gets the \
            `report` module and the run ends with its verdict; the host prints one JSON line per \
            event. A link after the target (the app's scheme, or a universal link on one of its \
            applinks: hosts under identifiers.linkPathPrefix) opens its path and query on the \
            start page's origin instead of the start page. Exit status: 0 done; 1 the page \
            reported failures; 2 a target, configuration or link that cannot be used; 3 timed out; 4 screenshot failed; 5 no display or web engine; \
            7 the start page did not load (printed as a loadFailed line); 64 a bad flag.

            The clipboard, printing, desktop notifications and secure storage are real; the \
            other device features are simulated (each simulated action is printed as a JSON \
            line), and --simulate scripts them.
            """)

    @Argument(help: "A pwa-config.json file, a directory holding one, or an http(s) URL.")
    var target: String

    @Argument(
        help: ArgumentHelp(
            "A link into the app (its scheme, or a universal link on an applinks: host): open that page instead of the start page.",
            valueName: "link"))
    var link: String?

    @Option(
        help: ArgumentHelp(
            "Share a link to the app: open the configuration's shareTarget page with it (as the web manifest's share_target does).",
            valueName: "url"))
    var shareURL: String?

    @Option(help: ArgumentHelp("The shared title (with --share-url or alone).", valueName: "text"))
    var shareTitle: String?

    @Option(help: ArgumentHelp("The shared text (with --share-url or alone).", valueName: "text"))
    var shareText: String?

    @Option(help: "The directory served as app://<appId>/ (default: the configuration's directory).")
    var bundle: String?

    @OptionGroup var host: HostRunOptions

    func validate() throws {
        let sharing = shareURL != nil || shareTitle != nil || shareText != nil
        if sharing, link != nil {
            throw ValidationError("give a link or a share (--share-url, --share-title, --share-text), not both")
        }
        for (flag, value) in [("--share-url", shareURL), ("--share-title", shareTitle), ("--share-text", shareText)] {
            guard let value else { continue }
            guard value.utf8.count <= 8192 else { throw ValidationError("\(flag) is longer than 8192 bytes") }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) else {
                throw ValidationError("\(flag) holds a control character")
            }
        }
    }

    func run() throws {
        var launch: AppLaunch
        do {
            launch = try AppLaunch.resolve(target, bundle: bundle)
        } catch {
            Console.writeError("error: \(error.message)")
            throw ExitCode(2)
        }
        if let link {
            do {
                launch.startURL = try AppLinks.pageURL(
                    for: link, startURL: launch.startURL, identifiers: AppIdentifiers(launch.configuration))
            } catch {
                Console.writeError("error: link: \(error.field.map { "\($0): " } ?? "")\(error.message) (\(error.code))")
                throw ExitCode(2)
            }
        }
        if shareURL != nil || shareTitle != nil || shareText != nil {
            guard let target = launch.configuration.shareTarget else {
                Console.writeError(
                    "error: share: the configuration has no shareTarget (the page that takes shares; docs/configuration.md)")
                throw ExitCode(2)
            }
            guard let page = target.pageURL(startURL: launch.startURL, title: shareTitle, text: shareText, url: shareURL)
            else {
                Console.writeError("error: share: the start URL \(launch.startURL) has no origin")
                throw ExitCode(2)
            }
            launch.startURL = page
        }
        let simulation: SimulationScript?
        do {
            simulation = try host.loadSimulation()
        } catch {
            Console.writeError("error: \(error.message ?? error.code)")
            throw ExitCode(2)
        }
        #if WebKitGTK
            if host.scripted, Headless.needsDisplay() {
                throw ExitCode(Headless.rerunUnderXvfb())
            }
            var options = host.hostOptions()
            options.simulation = simulation
            let flags = AppFlags.modules(for: launch.configuration)
            throw ExitCode(MainActor.assumeIsolated { HostRunOptions.openWindow(launch, options: options, extraModules: flags) })
        #else
            throw HostRunOptions.hostUnavailable()
        #endif
    }
}
