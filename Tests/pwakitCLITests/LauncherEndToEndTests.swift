#if WebKitGTK
    import Foundation
    import Testing

    /// The launcher end to end, as a person uses it: the real `pwakit server`, releases signed and
    /// published with the binary, the Notes example's own backend, and `pwakit launcher` driven
    /// through its own page by scripted tours in WebKitGTK.
    @Suite(.serialized) struct LauncherEndToEndTests {
        /// A process whose output goes to a file the test reads while it runs.
        final class Running {
            let process = Process()
            let log: URL

            init(_ executable: URL, _ arguments: [String], log: URL, environment: [String: String] = [:]) throws {
                self.log = log
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                process.executableURL = executable
                process.arguments = arguments
                process.standardOutput = try FileHandle(forWritingTo: log)
                process.standardError = process.standardOutput
                process.standardInput = FileHandle.nullDevice
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                try process.run()
            }

            var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

            /// The JSON lines printed so far.
            var events: [[String: Any]] {
                text.split(separator: "\n").compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                }
            }

            /// Waits (up to two minutes) for a file to appear or the process to end.
            func waitFor(file: URL) -> Bool {
                for _ in 0..<1200 {
                    if FileManager.default.fileExists(atPath: file.path) { return true }
                    if !process.isRunning { return false }
                    usleep(100_000)
                }
                return false
            }

            func wait() -> Int32 {
                process.waitUntilExit()
                return process.terminationStatus
            }

            deinit {
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                }
            }
        }

        static func listeningURL(_ running: Running) throws -> String {
            // NB: up to 120 s: a debug build starting among suites that load pages can take long.
            for _ in 0..<6_000 where running.process.isRunning {
                let lines = running.text.split(separator: "\n").filter { $0.contains("listening on") }
                if let url = lines.lazy.compactMap({ $0.split(separator: " ").first { $0.hasPrefix("http://") } }).first {
                    return String(url)
                }
                usleep(20_000)
            }
            Issue.record("nothing listening: \(running.text)")
            throw CocoaError(.fileReadNoSuchFile)
        }

        @Test func signInSSOUpdateRollbackOfflineAndSignOut() throws {
            let work = try TemporaryDirectory()
            let keyFile = work.url.appendingPathComponent("key.json").path
            let keys = try PWAKitBinary.run(["keys", "generate", "--output", keyFile])
            let publicKey = try #require(
                ((try JSONSerialization.jsonObject(with: Data(keys.stdout.utf8))) as? [String: Any])?["publicKey"] as? String)
            let secret = "notes-secret-\(UUID().uuidString)"
            let seed = try work.write(
                "seed.json",
                """
                {"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"},
                          {"email":"ada@example.com","password":"ada-password-1","displayName":"Ada Lovelace","role":"user"}],
                 "apps":[{"id":"notes","name":"Notes","publisherKeys":["\(publicKey)"],
                          "credentials":[{"credentialId":"notes-backend","secret":"\(secret)"}]},
                         {"id":"lights","name":"Lights Out","permissions":["haptics"],"publisherKeys":["\(publicKey)"]}]}
                """)
            let server = try MiniAppEndToEndTests.PlatformServer(directory: work.url, seed: seed)
            let backendBinary = try PWAKitBinary.locate().deletingLastPathComponent().appendingPathComponent(
                "NotesExampleBackend")
            let backend = try Running(
                backendBinary, [], log: work.url.appendingPathComponent("backend.log"),
                environment: [
                    "PWAKIT_SERVER": server.url, "NOTES_CREDENTIAL_ID": "notes-backend", "NOTES_CREDENTIAL_SECRET": secret,
                ])
            let backendURL = try Self.listeningURL(backend)

            func publish(_ appId: String, _ version: String, site: URL) throws {
                let release = work.url.appendingPathComponent("\(appId)-\(version).json").path
                let bundled = try PWAKitBinary.run([
                    "bundle", site.path, "--app-id", appId, "--version", version, "--key", keyFile, "--output", release,
                ])
                #expect(bundled.status == 0, "\(bundled.stderr)")
                let published = try PWAKitBinary.run(
                    ["publish", site.path, "--release", release, "--server", server.url, "--email", "admin@example.com"],
                    environment: ["PWAKIT_PASSWORD": "admin-password"])
                #expect(published.status == 0, "\(published.stderr)")
            }
            func copy(_ example: String) throws -> URL {
                let site = work.url.appendingPathComponent("site-\(example)-\(UUID().uuidString.prefix(6))")
                try FileManager.default.copyItem(
                    at: PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/miniapps/\(example)/site"), to: site)
                return site
            }
            let notes = try copy("notes")
            try Data(##"{"url": "\##(backendURL)"}"##.utf8).write(to: notes.appendingPathComponent("backend.json"))
            try publish("notes", "1.0.0", site: notes)
            try publish("lights", "1.0.0", site: try copy("lights"))

            let store = work.url.appendingPathComponent("store").path
            let data = work.url.appendingPathComponent("launcher").path
            var tours = 0
            func launcher(
                _ steps: [String], readyTimeout: Int = 10, arguments: [String]? = nil, during: ((Running) throws -> Void)? = nil
            ) throws -> Running {
                tours += 1
                let tour = try work.write(
                    "tour-\(tours).json", ##"{"timeoutSeconds": 60, "steps": [\##(steps.joined(separator: ","))]}"##)
                let run = try Running(
                    try PWAKitBinary.locate(),
                    ["launcher"] + (arguments ?? ["--server", server.url])
                        + [
                            "--store", store, "--data-dir", data, "--trust-key", publicKey, "--ready-timeout", "\(readyTimeout)",
                            "--tour", tour.path,
                        ], log: work.url.appendingPathComponent("launcher-\(tours).log"))
                try during?(run)
                let status = run.wait()
                let failed = run.events.filter { $0["event"] as? String == "tourStep" && $0["ok"] as? Bool == false }
                #expect(status == 0, "tour \(tours): \(failed) \(run.text.suffix(2000))")
                return run
            }
            let signal = work.url.appendingPathComponent("published")
            let waiting = work.url.appendingPathComponent("waiting")

            // 1. Sign in through the page, list, open Notes: its backend exchanged the launch code and
            //    says who signed in. Then, while the launcher runs, a new Lights release is published:
            //    refreshing shows the badge, updating downloads it for the next launch, which runs it.
            let first = try launcher(
                [
                    ##"{"waitFor": "#email"}"##, ##"{"fill": {"#email": "ada@example.com", "#password": "wrong-password"}}"##,
                    ##"{"click": "#sign-in"}"##, ##"{"waitForText": "The email address or the password is wrong."}"##,
                    ##"{"fill": {"#password": "ada-password-1"}}"##, ##"{"click": "#sign-in"}"##,
                    ##"{"waitFor": "#app-notes"}"##, ##"{"waitForText": "Ada Lovelace"}"##, ##"{"click": "#app-notes"}"##,
                    ##"{"waitForApp": "notes"}"##, ##"{"waitForText": "Signed in as Ada Lovelace"}"##, ##"{"back": true}"##,
                    ##"{"waitFor": "#install-lights"}"##, ##"{"click": "#app-lights"}"##, ##"{"waitForApp": "lights"}"##,
                    ##"{"back": true}"##, ##"{"touch": "\##(waiting.path)-2"}"##, ##"{"waitForFile": "\##(signal.path)-2"}"##,
                    ##"{"click": "#refresh"}"##, ##"{"waitFor": "#update-lights"}"##, ##"{"click": "#update-lights"}"##,
                    ##"{"waitFor": "#pending-lights"}"##, ##"{"click": "#app-lights"}"##, ##"{"waitForApp": "lights"}"##,
                    ##"{"back": true}"##, ##"{"waitForText": "Version 1.1.0"}"##,
                ]
            ) { run in
                #expect(run.waitFor(file: URL(fileURLWithPath: waiting.path + "-2")))
                try publish("lights", "1.1.0", site: try copy("lights"))
                _ = FileManager.default.createFile(atPath: signal.path + "-2", contents: nil)
            }
            let opened = first.events.filter { $0["event"] as? String == "miniapp" }
            #expect(opened.map { $0["appId"] as? String } == ["notes", "lights", "lights"])
            #expect(opened.map { $0["version"] as? String } == ["1.0.0", "1.0.0", "1.1.0"])
            #expect(first.events.contains { $0["event"] as? String == "releaseConfirmed" && $0["appId"] as? String == "lights" })

            // 1b. A link opens a mini-app at its page, with no --server (the last run's is kept): a
            //     custom-scheme link read under the link's own scheme, then a universal link read under
            //     a configuration's identifiers.
            let linked = try launcher(
                [##"{"waitForApp": "lights"}"##, ##"{"back": true}"##],
                arguments: ["pwakit-e2e://app/lights/index.html?from=link"])
            #expect(linked.events.contains { $0["event"] as? String == "link" && $0["opened"] as? Bool == true })
            #expect(
                linked.events.contains { ($0["url"] as? String) == "app://lights/index.html?from=link" },
                "\(linked.text.suffix(1500))")
            let config = try work.write(
                "pwa-config.json",
                """
                {"version": 1, "app": {"name": "E2E", "bundleId": "dev.pwakit.e2e", "startUrl": "https://e2e.example.com/"},
                 "origins": {"allowed": ["e2e.example.com"]},
                 "identifiers": {"teamId": "A1B2C3D4E5", "associatedDomains": ["applinks:e2e.example.com"], "linkPathPrefix": "/open"}}
                """)
            let universal = try launcher(
                [##"{"waitForApp": "notes"}"##, ##"{"back": true}"##],
                arguments: ["https://e2e.example.com/open/app/notes", "--config", config.path])
            #expect(universal.events.contains { $0["event"] as? String == "link" && $0["appId"] as? String == "notes" })
            let foreign = try PWAKitBinary.run([
                "launcher", "https://evil.example/open/app/notes", "--config", config.path, "--data-dir", data,
            ])
            #expect(foreign.status == 2)
            #expect(foreign.stderr.contains("foreign_host"), "\(foreign.stderr)")

            // 2. A broken release (it never reports ready) is rolled back, and the launcher says so;
            //    the next open runs the previous release.
            let broken = work.url.appendingPathComponent("site-broken")
            try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
            try Data("<!doctype html><title>Broken</title><p>never ready</p>".utf8).write(
                to: broken.appendingPathComponent("index.html"))
            try publish("lights", "1.2.0", site: broken)
            let second = try launcher(
                [
                    ##"{"waitFor": "#update-lights"}"##, ##"{"click": "#update-lights"}"##, ##"{"waitFor": "#pending-lights"}"##,
                    ##"{"click": "#app-lights"}"##, ##"{"waitForText": "did not start and was rolled back"}"##,
                    ##"{"waitForText": "1 release rolled back"}"##, ##"{"click": "#app-lights"}"##,
                    ##"{"waitForApp": "lights"}"##,
                    ##"{"waitForText": "Lights Out"}"##, ##"{"back": true}"##,
                ], readyTimeout: 2)
            #expect(second.events.contains { $0["event"] as? String == "rolledBack" && $0["appId"] as? String == "lights" })
            #expect(
                second.events.filter { $0["event"] as? String == "miniapp" }.map { $0["version"] as? String } == [
                    "1.2.0", "1.1.0",
                ])

            // 3. Offline: the server and the backend stop; the kept session and catalog open the grid
            //    with the banner, and the installed game opens. Signing out returns to the login form.
            server.stop()
            kill(backend.process.processIdentifier, SIGKILL)
            let offline = try launcher([
                ##"{"waitFor": "#offline"}"##, ##"{"click": "#app-lights"}"##, ##"{"waitForApp": "lights"}"##,
                ##"{"waitForText": "Lights Out"}"##, ##"{"back": true}"##, ##"{"click": "#open-settings"}"##,
                ##"{"waitForText": "Ada Lovelace"}"##, ##"{"click": "#sign-out"}"##, ##"{"waitFor": "#email"}"##,
            ])
            #expect(offline.events.contains { $0["event"] as? String == "launcher" && $0["route"] as? String == "launcher" })

            // 4. The next start has no session: the login form.
            let after = try launcher([##"{"waitFor": "#email"}"##])
            #expect(after.events.contains { $0["event"] as? String == "launcher" && $0["route"] as? String == "login" })
        }

        @Test func aTourFileWithAProblemNamesTheField() throws {
            let work = try TemporaryDirectory()
            let cases: [(String, String)] = [
                (##"{"steps": [{"clik": "#x"}]}"##, "steps[0].clik: unknown step"),
                (##"{"steps": [{"click": "#x", "fill": {}}]}"##, "steps[0]: must be an object with exactly one of"),
                (##"{"steps": [{"screenshot": "a.jpg"}]}"##, "steps[0].screenshot: must name a .png file"),
                (##"{"steps": [], "timeoutSeconds": 5}"##, "steps: must hold 1…500 steps"),
                (##"{"steps": [{"back": true}], "timeoutSeconds": 0}"##, "timeoutSeconds: must be a whole number"),
                (##"{"steps": [{"fill": {"#a": 1}}]}"##, "steps[0].fill.#a: must be a string"),
                (##"{"steps": [{"back": true}], "extra": 1}"##, "extra: unknown field"),
                (##"{"steps": [{"back": true}]"##, "not valid JSON"),
            ]
            for (index, (text, expected)) in cases.enumerated() {
                let file = try work.write("tour-\(index).json", text)
                let run = try PWAKitBinary.run([
                    "launcher", "--server", "http://127.0.0.1:9", "--store", work.url.appendingPathComponent("s").path,
                    "--data-dir", work.url.appendingPathComponent("d").path, "--tour", file.path,
                ])
                #expect(run.status == 2, "\(text)")
                #expect(run.stderr.contains(expected), "\(text): \(run.stderr)")
            }
            let badServer = try PWAKitBinary.run(["launcher", "--server", "ftp://example.com"])
            #expect(badServer.status == 64)
            #expect(badServer.stderr.contains("--server must be an http or https URL"))
            let noServer = try PWAKitBinary.run(["launcher", "--data-dir", work.url.appendingPathComponent("empty").path])
            #expect(noServer.status == 2)
            #expect(noServer.stderr.contains("no --server given"), "\(noServer.stderr)")
            let badLink = try PWAKitBinary.run([
                "launcher", "myapp://app/Not An Id", "--server", "http://127.0.0.1:9", "--data-dir",
                work.url.appendingPathComponent("d2").path,
            ])
            #expect(badLink.status == 2)
            #expect(badLink.stderr.contains("link: "), "\(badLink.stderr)")
        }
    }
#endif
