import Foundation

/// Runs `pwakit run --screenshot/--report` with no display: re-runs the same command under
/// `xvfb-run`, which starts a virtual X server for it.
enum Headless {
    /// Set in the re-run so it does not try again.
    static let marker = "PWAKIT_UNDER_XVFB"

    /// Whether there is no display to draw on (and no re-run has happened yet).
    static func needsDisplay(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        return !hasDisplay && environment[marker] == nil
    }

    /// Runs this process's command again under `xvfb-run -a`; returns its exit status
    /// (5 when Xvfb is not installed).
    static func rerunUnderXvfb() -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        process.arguments =
            ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", executable] + CommandLine.arguments.dropFirst()
        var environment = ProcessInfo.processInfo.environment
        environment[marker] = "1"
        process.environment = environment
        do {
            try process.run()
        } catch {
            Console.writeError("error: no display, and xvfb-run could not start (apt-get install xvfb xauth)")
            return 5
        }
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            Console.writeError("error: no display, and xvfb-run is not installed (apt-get install xvfb xauth)")
            return 5
        }
        return process.terminationStatus
    }
}
