#if WebKitGTK
    import Foundation
    import Testing

    /// The host's real Linux providers, each observed from outside the host: `xclip` reads
    /// and writes the clipboard, GTK's print-to-file printer writes the PDF, a stub
    /// notification service on a private bus (`dbus-run-session`) records `Notify`,
    /// `secret-tool` finds the secret in a keyring started for the test.
    @Suite(.serialized) struct LinuxProviderTests {
        static let pages = PWAKitBinary.repositoryRoot.appendingPathComponent("Tests/HostPages/providers")
        static let services = PWAKitBinary.repositoryRoot.appendingPathComponent("Tests/LinuxDesktop")
        static let bundleID = "dev.pwakit.e2e.providers"

        /// A configuration for `page` of the providers bundle, with every provider's feature on.
        static func app(_ page: String, in directory: TemporaryDirectory) throws -> URL {
            try directory.write(
                "app/pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "Providers", "bundleId": "\(bundleID)", "startUrl": "app://providers/\(page)"},
                 "origins": {"allowed": ["pwakit.dev"]},
                 "features": {"clipboard": true, "print": true, "notifications": true, "secureStorage": true,
                              "haptics": true, "biometrics": true, "share": true}}
                """)
        }

        /// `pwakit run` arguments for `page` in test mode.
        static func runArguments(
            _ page: String, scratch: TemporaryDirectory, timeout: Int = 60, _ extra: [String] = []
        ) throws -> [String] {
            [
                "run", try app(page, in: scratch).path, "--bundle", pages.path, "--report", "--data-dir",
                scratch.url.appendingPathComponent("data").path, "--timeout", String(timeout),
            ] + extra
        }

        /// The environment without a session bus, unless the test provides one.
        static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            environment["XDG_RUNTIME_DIR"] = nil
            // No accessibility bus: GTK would start one on a test's private session bus.
            environment["NO_AT_BRIDGE"] = "1"
            for (name, value) in changes { environment[name] = value }
            return environment
        }

        // MARK: Clipboard

        @Test func theClipboardIsTheDesktopsClipboard() throws {
            let display = try VirtualDisplay()
            let environment = Self.environment(["DISPLAY": display.name])
            let put = try ClipboardOwner("from xclip ✓", environment: environment)
            defer { put.stop() }
            let served = poll { () -> Bool? in
                (try? Command.run("xclip", ["-o", "-selection", "clipboard"], environment: environment))?.stdout
                    == "from xclip ✓" ? true : nil
            }
            try #require(served == true, "xclip does not serve the clipboard")
            let scratch = try TemporaryDirectory()
            let host = try StreamingCommand(
                PWAKitBinary.locate().path, try Self.runArguments("clipboard.html", scratch: scratch), environment: environment)
            defer { host.stop() }
            try #require(host.waitForLine(containing: #""message":"clipboard-written""#), "\(host.output)")
            let seen = poll { () -> String? in
                let out = try? Command.run("xclip", ["-o", "-selection", "clipboard"], environment: environment)
                return out?.stdout == "written by the page ✓" ? out?.stdout : nil
            }
            #expect(seen == "written by the page ✓", "xclip -o read \(String(describing: seen))")
            // The page waits for this answer, read through the clipboard provider.
            let ack = try ClipboardOwner("ack from xclip", environment: environment)
            defer { ack.stop() }
            let status = host.wait()
            let run = HostEndToEndTests.HostRun(status: status, events: host.events, stderr: host.errors)
            #expect(run.failures == [])
            #expect(status == 0, "\(host.output) \(host.errors)")
            #expect(run.events("provider").contains { $0["module"] as? String == "clipboard" })
        }

        // MARK: Print

        @Test func printingWritesAPDFThroughGTKsPrintToFilePrinter() throws {
            let scratch = try TemporaryDirectory()
            let pdf = scratch.url.appendingPathComponent("out/receipt.pdf")
            try FileManager.default.createDirectory(at: pdf.deletingLastPathComponent(), withIntermediateDirectories: true)
            let run = try Command.run(
                PWAKitBinary.locate().path, try Self.runArguments("print.html", scratch: scratch, ["--print-to", pdf.path]),
                environment: Self.environment())
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let bytes = poll { (try? Data(contentsOf: pdf)).flatMap { $0.count > 4 ? $0 : nil } }
            #expect(bytes?.starts(with: Data("%PDF".utf8)) == true, "no PDF at \(pdf.path)")
        }

        @Test func withoutPrintToThePrintDialogOpensAndARunThatEndsClosesIt() throws {
            let scratch = try TemporaryDirectory()
            let run = try Command.run(
                PWAKitBinary.locate().path,
                // NB: long enough for the page to load and open the dialog on a loaded machine;
                // the run always ends at this timeout, with the dialog open.
                try Self.runArguments("print.html", scratch: scratch, timeout: 15, ["--dialogs", "native"]),
                environment: Self.environment())
            #expect(run.status == 3, "timed out with the dialog open, and ended: \(run.stdout) \(run.stderr)")
            let messages = run.events.filter { $0["module"] as? String == "print" }.compactMap { $0["message"] as? String }
            #expect(messages.contains { $0.hasSuffix("through the print dialog") }, "\(messages)")
        }

        @Test func printToMustNameAPDF() throws {
            let run = try PWAKitBinary.run(["run", "Examples/hello", "--print-to", "/tmp/out.png"])
            #expect(run.status != 0)
            #expect(run.stderr.contains("--print-to"))
        }

        // MARK: Notifications

        @Test func aScheduledNotificationIsShownThroughTheDesktopService() throws {
            let scratch = try TemporaryDirectory()
            let record = scratch.url.appendingPathComponent("notify.json")
            let run = try Command.run(
                "dbus-run-session",
                [
                    "--", "/usr/bin/python3", Self.services.appendingPathComponent("notification-service.py").path, record.path,
                    "--",
                ]
                    + [PWAKitBinary.locate().path] + (try Self.runArguments("notifications.html", scratch: scratch)),
                environment: Self.environment())
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let calls = poll { () -> [[String: Any]]? in
                guard let data = try? Data(contentsOf: record) else { return nil }
                return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
            }
            let call = try #require(calls?.first, "the stub recorded no Notify call")
            #expect(calls?.count == 1)
            #expect(call["app_name"] as? String == "Providers")
            #expect(call["summary"] as? String == "Stand up")
            #expect(call["body"] as? String == "Desk\nFrom the providers test")
            #expect((call["actions"] as? [String])?.first == "default")
            #expect(host.events("push").count == 1, "the click came back as one push event")
        }

        @Test func withoutANotificationServiceNotificationsAreUnavailable() throws {
            let scratch = try TemporaryDirectory()
            let run = try Command.run(
                PWAKitBinary.locate().path, try Self.runArguments("no-notifications.html", scratch: scratch),
                environment: Self.environment())
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            // The deferred notification is kept in the app's data directory for the next run.
            let saved = try FileManager.default.subpathsOfDirectory(atPath: scratch.url.appendingPathComponent("data").path)
                .filter { $0.hasSuffix("notifications.json") }
            #expect(saved.count == 1)
            let text = try String(
                contentsOf: scratch.url.appendingPathComponent("data").appendingPathComponent(saved.first ?? ""), encoding: .utf8)
            #expect(text.contains(#""id":"x""#))
        }

        // MARK: Secure storage

        static let keyringScript = """
            set -u
            eval "$(printf 'pwakit-test' | gnome-keyring-daemon --unlock --components=secrets)"
            "$@"
            status=$?
            secret-tool lookup app "$BUNDLE_ID" key refreshToken >"$LOOKUP" 2>&1
            secret-tool lookup app "$BUNDLE_ID" key gone >"$LOOKUP.gone" 2>&1
            exit $status
            """

        @Test func secretsGoToTheKeyringWhenASecretServiceRuns() throws {
            let scratch = try TemporaryDirectory()
            let home = scratch.url.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let lookup = scratch.url.appendingPathComponent("lookup")
            let run = try Command.run(
                "dbus-run-session",
                ["--", "bash", "-c", Self.keyringScript, "keyring", PWAKitBinary.locate().path]
                    + (try Self.runArguments("secrets.html", scratch: scratch)),
                environment: Self.environment([
                    "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
                    "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "LOOKUP": lookup.path,
                    "BUNDLE_ID": Self.bundleID,
                ]))
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let backend = host.events("log").compactMap { ($0["data"] as? [String: Any])?["backend"] as? String }.first
            #expect(backend?.hasPrefix("secret-service") == true, "\(String(describing: backend))")
            #expect(try String(contentsOf: lookup, encoding: .utf8) == "r-123 ✓")
            #expect(try String(contentsOf: URL(fileURLWithPath: lookup.path + ".gone"), encoding: .utf8) == "")
            // Nothing went to the file store.
            let sealed = scratch.url.appendingPathComponent("data/\(Self.bundleID)/data/secure-storage.sealed")
            #expect(!FileManager.default.fileExists(atPath: sealed.path))
        }

        @Test func withoutASecretServiceSecretsAreSealedInAFile() throws {
            let scratch = try TemporaryDirectory()
            let run = try Command.run(
                PWAKitBinary.locate().path, try Self.runArguments("secrets.html", scratch: scratch),
                environment: Self.environment())
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let backend = host.events("log").compactMap { ($0["data"] as? [String: Any])?["backend"] as? String }.first
            #expect(backend?.hasPrefix("encrypted-file") == true, "\(String(describing: backend))")
            let sealed = scratch.url.appendingPathComponent("data/\(Self.bundleID)/data/secure-storage.sealed")
            let bytes = try Data(contentsOf: sealed)
            #expect(bytes.range(of: Data("r-123".utf8)) == nil)
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("data/secure-storage.key").path))
        }

        // MARK: The simulated device

        @Test func aScriptedPushReachesThePageAndSimulatedActionsAreLogged() throws {
            let scratch = try TemporaryDirectory()
            let script = try scratch.write(
                "device.json",
                """
                {"biometrics": {"outcomes": ["user_cancel"]},
                 "pushes": [{"type": "received", "id": "welcome", "title": "Hi", "data": {"coupon": "C-42"}}]}
                """)
            let run = try Command.run(
                PWAKitBinary.locate().path,
                try Self.runArguments("simulated.html", scratch: scratch, ["--simulate", script.path]),
                environment: Self.environment())
            let host = HostEndToEndTests.HostRun(status: run.status, events: run.events, stderr: run.stderr)
            #expect(host.failures == [])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let simulated = host.events("simulated").compactMap { $0["action"] as? String }
            #expect(simulated.contains("haptics.impact medium"), "\(simulated)")
            #expect(simulated.contains("biometrics.authenticate user_cancel"), "\(simulated)")
            // The push went out after the page had loaded.
            let order = host.events.compactMap { $0["event"] as? String }
            let loaded = try #require(order.firstIndex(of: "loaded"))
            let pushed = try #require(order.firstIndex(of: "push"))
            #expect(loaded < pushed)
        }

        @Test func aBadSimulationScriptIsRefusedNamingTheField() throws {
            let scratch = try TemporaryDirectory()
            let script = try scratch.write("device.json", #"{"permissions": {"camera": "sometimes"}}"#)
            let run = try PWAKitBinary.run(["run", "Examples/hello", "--simulate", script.path])
            #expect(run.status == 2)
            #expect(run.stderr.contains("permissions.camera"), "\(run.stderr)")
            let missing = try PWAKitBinary.run(["run", "Examples/hello", "--simulate", "/nonexistent/device.json"])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--simulate"), "\(missing.stderr)")
        }
    }

    /// Polls `body` every 20 ms until it returns a value or `seconds` pass.
    func poll<T>(seconds: Double = 30, _ body: () -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = body() { return value }
            usleep(20_000)
        }
        return body()
    }

    /// Runs `argv[1:]` with no signals blocked.
    ///
    /// NB: Foundation starts children with the signal mask of the thread that spawns them, and
    /// test threads block SIGTERM; `dbus-run-session` could then never stop its bus, and the
    /// daemons on it (a keyring) would outlive the test holding the descriptor Foundation
    /// watches to see the command end.
    let unblockSignals =
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"

    /// A command run to completion with its output captured.
    struct Command {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The JSON lines of the output.
        var events: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        /// Runs `executable` (a path, or a name looked up on `PATH`) and waits for it.
        static func run(
            _ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil
        ) throws -> Command {
            let scratch = try TemporaryDirectory()
            let outURL = try scratch.write("stdout", "")
            let errURL = try scratch.write("stderr", "")
            let inURL = try scratch.write("stdin", input ?? "")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", unblockSignals, executable] + arguments
            process.environment = environment
            process.currentDirectoryURL = PWAKitBinary.repositoryRoot
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
            try process.run()
            process.waitUntilExit()
            return Command(
                status: process.terminationStatus, stdout: try scratch.read("stdout"), stderr: try scratch.read("stderr"))
        }
    }

    /// A command whose output is read while it runs (from files: no pipes to drain).
    final class StreamingCommand {
        private let process = Process()
        private let files: TemporaryDirectory

        init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
            files = try TemporaryDirectory()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", unblockSignals, executable] + arguments
            process.environment = environment
            process.currentDirectoryURL = PWAKitBinary.repositoryRoot
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: try files.write("stdout", ""))
            process.standardError = try FileHandle(forWritingTo: try files.write("stderr", ""))
            try process.run()
        }

        /// The complete lines printed so far.
        var output: [String] {
            let text = (try? files.read("stdout")) ?? ""
            return text.components(separatedBy: "\n").dropLast().map { $0 }
        }

        var errors: String { (try? files.read("stderr")) ?? "" }

        var events: [[String: Any]] {
            output.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }

        /// Whether a line containing `text` arrived before the deadline (or the process ended).
        func waitForLine(containing text: String, seconds: Double = 60) -> Bool {
            poll(seconds: seconds) { () -> Bool? in
                if output.contains(where: { $0.contains(text) }) { return true }
                return process.isRunning ? nil : false
            } ?? false
        }

        /// Waits for the process to end and returns its status.
        func wait() -> Int32 {
            process.waitUntilExit()
            return process.terminationStatus
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// `xclip -i` owning the clipboard with `text` until another program takes it or it is
    /// stopped. NB: in the foreground (`-quiet`): xclip's own background child would inherit the
    /// descriptor Foundation watches for the end of the process, and the wait would never end.
    final class ClipboardOwner {
        private let process = Process()
        private let input: TemporaryDirectory

        init(_ text: String, environment: [String: String]) throws {
            input = try TemporaryDirectory()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xclip", "-i", "-quiet", "-selection", "clipboard"]
            process.environment = environment
            process.standardInput = try FileHandle(forReadingFrom: try input.write("text", text))
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func stop() {
            // NB: SIGKILL, as for the loopback server: a child may start with SIGTERM blocked.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// An Xvfb server on a free display, shared by the host and the tools that observe it.
    final class VirtualDisplay {
        private let process = Process()
        let name: String

        init() throws {
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Xvfb writes the display number once it accepts connections.
            var number = ""
            while !number.hasSuffix("\n") {
                let byte = pipe.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                number += String(decoding: byte, as: UTF8.self)
            }
            let trimmed = number.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else {
                kill(process.processIdentifier, SIGKILL)
                throw CocoaError(.fileReadNoSuchFile)
            }
            name = ":\(trimmed)"
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
#endif
