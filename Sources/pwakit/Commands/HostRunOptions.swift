import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitHost
import PWAKitModules

#if WebKitGTK
    import PWAKitLinuxHost
#endif

/// How a host window runs, shared by `pwakit run` and `pwakit miniapp open`: scripted
/// (screenshot, report) or for a person, its size, dialogs, data directory and simulation.
struct HostRunOptions: ParsableArguments {
    @Option(help: "Save a PNG of the first painted view to this path, then exit.")
    var screenshot: String?

    @Option(name: .customLong("wait-for"), help: "What a screenshot waits for: paint or ready.")
    var waitFor: String = "paint"

    @Option(help: "Seconds a screenshot or report run may take.")
    var timeout: Int = 30

    @Flag(help: "Test mode: register the `report` module and exit with the page's verdict.")
    var report = false

    @Option(help: "How alert/confirm/prompt are answered: native, accept or dismiss.")
    var dialogs: String?

    @Option(name: .customLong("prompt-answer"), help: "The text an accepted prompt answers with.")
    var promptAnswer: String?

    @Option(
        name: .customLong("open-urls"),
        help: "Where external and system URLs go: desktop (xdg-open) or print (only reported).")
    var openURLs: String = "desktop"

    @Flag(
        name: .customLong("allow-popups"),
        help: "Let scripts open windows without a gesture (their URLs still follow the navigation policy).")
    var allowPopups = false

    @Option(name: .customLong("data-dir"), help: "The directory holding each app's website data.")
    var dataDirectory: String?

    @Option(help: "Window size, WIDTHxHEIGHT.")
    var size: String = "1024x768"

    @Option(
        name: .customLong("print-to"),
        help: "Print pages to this PDF file through GTK's print-to-file printer, without a dialog.")
    var printTo: String?

    @Option(
        help: ArgumentHelp(
            "A JSON script for the simulated device (biometrics, permissions, share, store, pushes).",
            valueName: "file"))
    var simulate: String?

    func validate() throws {
        guard ["paint", "ready"].contains(waitFor) else {
            throw ValidationError("--wait-for must be paint or ready, got \(waitFor)")
        }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be 1…3600 seconds") }
        if let dialogs, !["native", "accept", "dismiss"].contains(dialogs) {
            throw ValidationError("--dialogs must be native, accept or dismiss, got \(dialogs)")
        }
        guard ["desktop", "print"].contains(openURLs) else {
            throw ValidationError("--open-urls must be desktop or print, got \(openURLs)")
        }
        guard parsedSize != nil else { throw ValidationError("--size must be WIDTHxHEIGHT, got \(size)") }
        if let printTo, !printTo.lowercased().hasSuffix(".pdf") {
            throw ValidationError("--print-to must name a .pdf file, got \(printTo)")
        }
    }

    /// The `--simulate` script, or a message naming the file and the field at fault.
    func loadSimulation() throws(CommandFailure) -> SimulationScript? {
        guard let simulate else { return nil }
        guard let data = FileManager.default.contents(atPath: simulate) else {
            throw CommandFailure(
                status: .unreadable, code: "unreadable", message: "--simulate \(simulate): cannot read the file")
        }
        do {
            return try SimulationScript.parse(data)
        } catch {
            throw CommandFailure(
                status: .unreadable, code: error.code.rawValue, message: "--simulate \(simulate): \(error.message)")
        }
    }

    /// Whether the run is scripted (no person at the window).
    var scripted: Bool { screenshot != nil || report }

    #if WebKitGTK
        /// The host options these flags describe.
        func hostOptions() -> HostOptions {
            var options = HostOptions()
            options.screenshot = screenshot.map { URL(fileURLWithPath: $0) }
            options.waitFor = HostOptions.WaitCondition(rawValue: waitFor) ?? .paint
            options.timeout = .seconds(timeout)
            options.report = report
            options.dialogs = dialogs.flatMap(HostOptions.DialogMode.init(rawValue:)) ?? (scripted ? .accept : .native)
            options.promptAnswer = promptAnswer
            options.allowPopups = allowPopups
            options.dataDirectory = dataDirectory.map { URL(fileURLWithPath: $0) }
            options.printTo = printTo.map { URL(fileURLWithPath: $0) }
            if openURLs == "print" { options.openURL = { _, _ in } }
            if let (width, height) = parsedSize {
                options.width = width
                options.height = height
            }
            return options
        }
    #endif

    #if WebKitGTK
        /// Opens `launch` in a host window over the simulated device (with the real Linux providers
        /// in place), lets `configure` attach to it, and returns the exit status: the run's own, 2 for
        /// a launch the host refuses, 5 without a display or web engine.
        @MainActor
        static func openWindow(
            _ launch: AppLaunch, options: HostOptions, extraModules: [any PWAModule] = [],
            configure: (LinuxHost) -> Void = { _ in }
        ) -> Int32 {
            do {
                let device = LinuxHost.simulatedDevice(options: options)
                let host = try LinuxHost(
                    launch: launch, options: options, providers: .simulated(device), device: device, extraModules: extraModules)
                configure(host)
                return try host.run()
            } catch let error as HostError {
                Console.writeError("error: \(error.message)")
                return error.code == .engineUnavailable ? 5 : 2
            } catch {
                Console.writeError("error: \(error)")
                return 2
            }
        }
    #endif

    /// The exit status of a window command in a build without the WebKitGTK host, after saying so.
    static func hostUnavailable() -> ExitCode {
        Console.writeError(
            "error: this pwakit was built without the WebKitGTK host; build it with `swift build --traits WebKitGTK`")
        return ExitCode(5)
    }

    var parsedSize: (Int, Int)? { Self.parseSize(size) }

    /// `WIDTHxHEIGHT`, each 100…8192 pixels.
    static func parseSize(_ size: String) -> (Int, Int)? {
        let parts = size.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (100...8192).contains(width), (100...8192).contains(height)
        else { return nil }
        return (width, height)
    }
}
