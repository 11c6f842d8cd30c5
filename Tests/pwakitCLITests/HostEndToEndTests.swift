#if WebKitGTK
    import Foundation
    import Testing

    /// Runs real pages in the real WebKitGTK host (`pwakit run --report`, under Xvfb when there
    /// is no display) and reads their verdicts and the host's event lines.
    @Suite(.serialized) struct HostEndToEndTests {
        static let pages = PWAKitBinary.repositoryRoot.appendingPathComponent("Tests/HostPages")

        /// One run's output, parsed.
        struct HostRun {
            var status: Int32
            var events: [[String: Any]]
            var stderr: String

            func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

            /// The per-check results of the page's verdict and its log lines' data.
            var failures: [String] {
                var failures: [String] = []
                for entry in events("finish") + events("log") {
                    for result in entry["data"] as? [[String: Any]] ?? [] where result["ok"] as? Bool == false {
                        failures.append("\(result["name"] ?? "?"): \(result["detail"] ?? "")")
                    }
                }
                return failures
            }
        }

        static func run(_ target: String, _ extra: [String] = []) throws -> HostRun {
            let data = try TemporaryDirectory()
            let run = try PWAKitBinary.run(
                ["run", target, "--report", "--open-urls", "print", "--data-dir", data.url.path, "--timeout", "60"] + extra)
            let events = run.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            return HostRun(status: run.status, events: events, stderr: run.stderr)
        }

        @Test func aPageUsesTheInjectedSDKAgainstTheRealBridge() throws {
            let run = try Self.run(Self.pages.appendingPathComponent("bridge").path)
            #expect(run.failures == [])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let finish = try #require(run.events("finish").first)
            #expect((finish["passed"] as? Int ?? 0) >= 24)
            #expect(run.events("ready").count == 1)
            // The timed-out and the aborted calls were cancelled natively, not left running.
            let held = run.events("held")
            #expect(held.contains { $0["label"] as? String == "timeout" && $0["completed"] as? Bool == false })
            #expect(held.contains { $0["label"] as? String == "abort" && $0["completed"] as? Bool == false })
        }

        @Test func aLinkOpensItsPageOnTheAppsOriginAndAForeignOneIsRefused() throws {
            let data = try TemporaryDirectory()
            let shot = data.url.appendingPathComponent("shot.png").path
            for link in ["pwakit-hello://index.html?from=link", "https://pwakit.dev/open/index.html?from=link"] {
                let run = try PWAKitBinary.run([
                    "run", "Examples/hello", link, "--screenshot", shot, "--data-dir", data.url.path, "--timeout", "60",
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(
                    run.stdout.contains(#""url":"app:\/\/hello\/index.html?from=link""#)
                        || run.stdout.contains(#""url":"app://hello/index.html?from=link""#), "\(run.stdout)")
            }
            for (link, code) in [
                ("https://evil.example/open/index.html", "foreign_host"),
                ("https://pwakit.dev/index.html", "outside_path_prefix"),
                ("pwakit-hello://a/../index.html", "invalid_parameter"), ("other://index.html", "foreign_scheme"),
            ] {
                let run = try PWAKitBinary.run(["run", "Examples/hello", link, "--screenshot", shot])
                #expect(run.status == 2, "\(link)")
                #expect(run.stderr.contains("(\(code))"), "\(link): \(run.stderr)")
            }
        }

        @Test func aSeedEraPageShippingItsOwnBridgeTalksTheRawProtocol() throws {
            let run = try Self.run(Self.pages.appendingPathComponent("seed").path)
            #expect(run.failures == [])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            #expect((run.events("finish").first?["passed"] as? Int ?? 0) >= 6)
        }

        @Test func navigationFollowsThePolicyAndDialogsAreAnswered() throws {
            let run = try Self.run(Self.pages.appendingPathComponent("navigation").path, ["--allow-popups"])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            #expect(run.failures == [])
            let external = run.events("external").compactMap { $0["url"] as? String }
            #expect(
                external == ["https://github.com/pwakit", "https://unmatched.example/", "https://github.com/new-window"])
            #expect(run.events("system").compactMap { $0["url"] as? String } == ["tel:+15551234"])
            let blocked = run.events("blocked").compactMap { $0["url"] as? String }
            #expect(blocked.contains("https://github.com/embedded"))
            #expect(blocked.contains("https://github.com/scripted"))
            let committed = run.events("committed").compactMap { $0["url"] as? String }
            #expect(committed == ["app://navigation/index.html", "app://navigation/second.html"])
            #expect(run.events("dialog").compactMap { $0["kind"] as? String } == ["confirm", "prompt"])
        }

        @Test func framesAndAuthPagesHaveNoBridgeAndNavigationCancelsCalls() throws {
            let server = try LoopbackServer(directory: Self.pages.appendingPathComponent("web"))
            let app = try TemporaryDirectory()
            try app.write(
                "pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "Frames", "bundleId": "dev.pwakit.e2e.frames",
                         "startUrl": "app://frames/index.html?server=\(server.port)"},
                 "origins": {"allowed": ["127.0.0.1:\(server.port)"], "auth": ["localhost:\(server.port)"],
                         "grants": {"127.0.0.1:\(server.port)": ["report", "lifecycle"]}}}
                """)
            let run = try Self.run(
                app.url.appendingPathComponent("pwa-config.json").path,
                ["--bundle", Self.pages.appendingPathComponent("frames").path])
            #expect(run.failures == [])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let committed = run.events("committed")
            #expect(committed.compactMap { $0["bridge"] as? Bool } == [true, false, true], "\(committed)")
            // The auth page shows the bar that leads back to the start URL; the others do not.
            #expect(committed.compactMap { $0["signInBar"] as? Bool } == [false, true, false], "\(committed)")
            #expect(
                run.events("log").contains { ($0["data"] as? [[String: Any]])?.count == 3 },
                "the start page reported its frame checks")
            #expect(
                run.events("held").contains {
                    $0["label"] as? String == "in-flight-at-navigation" && $0["completed"] as? Bool == false
                })
        }

        @Test func eachAppKeepsItsWebsiteDataToItself() throws {
            let data = try TemporaryDirectory()
            let apps = try TemporaryDirectory()
            func launch(_ app: String) throws -> String? {
                let config = try apps.write(
                    "\(app)/pwa-config.json",
                    """
                    {"version": 1,
                     "app": {"name": "\(app)", "bundleId": "dev.pwakit.e2e.storage-\(app)",
                             "startUrl": "app://storage/index.html?app=\(app)"},
                     "origins": {"allowed": ["pwakit.dev"]}}
                    """)
                let run = try PWAKitBinary.run([
                    "run", config.path, "--bundle", Self.pages.appendingPathComponent("storage").path, "--report",
                    "--data-dir", data.url.path, "--timeout", "60",
                ])
                #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
                let finish = run.stdout.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
                }.first { $0["event"] as? String == "finish" }
                let result = finish?["data"] as? [String: Any]
                #expect(result?["app"] as? String == app)
                return result?["previous"] as? String
            }
            // Same origin (app://storage), different bundle ids: separate storage.
            #expect(try launch("one") == nil)
            #expect(try launch("two") == nil)
            #expect(try launch("one") == "one")
            #expect(try launch("two") == "two")
            let directories = try FileManager.default.contentsOfDirectory(atPath: data.url.path).sorted()
            #expect(directories == ["dev.pwakit.e2e.storage-one", "dev.pwakit.e2e.storage-two"])
        }

        @Test func aScreenshotIsTakenWithoutADisplay() throws {
            let out = try TemporaryDirectory()
            let png = out.url.appendingPathComponent("hello.png")
            let data = try TemporaryDirectory()
            let run = try PWAKitBinary.run([
                "run", PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello").path, "--screenshot", png.path,
                "--wait-for", "ready", "--data-dir", data.url.path, "--timeout", "60",
            ])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let bytes = try Data(contentsOf: png)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(run.stdout.contains(#""event":"ready""#))
        }

        @Test func badArgumentsAreRefusedWithTheirName() throws {
            let bad = try PWAKitBinary.run(["run", "Examples/hello", "--wait-for", "soon"])
            #expect(bad.status == 64)
            #expect(bad.stderr.contains("--wait-for"))
            let invalid = try PWAKitBinary.run(["run", "Examples/invalid", "--screenshot", "/tmp/never.png"])
            #expect(invalid.status == 2)
            #expect(invalid.stderr.contains("origins"))
        }
    }

    /// A static file server (Python's `http.server`) on a free loopback port, for pages of
    /// http origins.
    final class LoopbackServer {
        let process = Process()
        let port: Int

        static let program = """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            with open(sys.argv[2] + ".tmp", "w") as f: f.write(str(server.server_address[1]))
            import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
            server.serve_forever()
            """

        init(directory: URL) throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-port-\(UUID().uuidString)")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", Self.program, directory.path, scratch.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // NB: the server writes its port once it listens; wait for that file, not a fixed time
            // (up to 120 s on a loaded machine), and no longer once it has exited.
            var port: Int?
            for _ in 0..<12_000 where port == nil && process.isRunning {
                port = (try? String(contentsOf: scratch, encoding: .utf8)).flatMap { Int($0) }
                if port == nil { usleep(10_000) }
            }
            try? FileManager.default.removeItem(at: scratch)
            guard let port else {
                process.terminate()
                throw CocoaError(.fileReadNoSuchFile)
            }
            self.port = port
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            var status: Int32 = 0
            waitpid(process.processIdentifier, &status, 0)
        }
    }
#endif
