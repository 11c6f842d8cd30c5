#if WebKitGTK
    import Foundation
    import Testing

    /// `run`, `bridge` and `modules` build one registry for the same configuration: the same modules
    /// (`lifecycle` included), the same schema hash, the same `app.getVersion`.
    @Suite struct CommandsAgreeTests {
        /// Runs `pwakit bridge` with `lines` on its standard input; the JSON lines it printed.
        static func bridge(_ configuration: String, _ lines: [String]) throws -> [[String: Any]] {
            let work = try TemporaryDirectory()
            let input = try work.write("stdin", lines.joined(separator: "\n") + "\n")
            let output = work.url.appendingPathComponent("stdout")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = try PWAKitBinary.locate()
            process.arguments = ["bridge", configuration]
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return try String(contentsOf: output, encoding: .utf8).split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        @Test func runBridgeAndModulesAnswerAlike() throws {
            let app = PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello").path
            let modules = try PWAKitBinary.run(["modules", "--json", app])
            #expect(modules.status == 0, "\(modules.stderr)")
            let listing = try #require(try JSONSerialization.jsonObject(with: Data(modules.stdout.utf8)) as? [String: Any])
            let names = ((listing["modules"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("lifecycle"))

            let answers = try Self.bridge(
                app,
                [
                    #"{"id":"v","module":"app","action":"getVersion"}"#,
                    #"{"id":"r","module":"lifecycle","action":"ready"}"#,
                ])
            let handshake = try #require(answers.first { $0["type"] as? String == "protocol" }?["data"] as? [String: Any])
            #expect(handshake["schemaHash"] as? String == listing["schemaHash"] as? String)
            let version = answers.first { $0["id"] as? String == "v" }
            #expect(version?["success"] as? Bool == true)
            let ready = answers.first { $0["id"] as? String == "r" }
            #expect(ready?["success"] as? Bool == true, "lifecycle answers in bridge: \(String(describing: ready))")

            // The same page, in the host, reads the same version.
            let site = try TemporaryDirectory()
            try site.write(
                "pwa-config.json",
                #"{"version":1,"app":{"name":"Agree","bundleId":"dev.pwakit.agree","startUrl":"app://agree/index.html"},"origins":{"allowed":["agree"]}}"#
            )
            try site.write(
                "index.html",
                """
                <!doctype html><script>
                addEventListener('load', async () => {
                  const version = await PWAKit.call('app', 'getVersion');
                  await PWAKit.call('report', 'log', { message: 'version', data: version });
                  await PWAKit.call('report', 'finish', { passed: 1, failed: 0 });
                });
                </script>
                """)
            let run = try HostEndToEndTests.run(site.url.path)
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let logged = run.events("log").first { $0["message"] as? String == "version" }?["data"] as? [String: Any]
            let bridged = version?["data"] as? [String: Any]
            #expect(logged?["version"] as? String == bridged?["version"] as? String)
            #expect(logged?["build"] as? String == bridged?["build"] as? String)
            #expect(bridged?["version"] as? String == "1.0.0")
        }

        @Test func flagDefaultsReachPagesThroughBridgeModulesAndRun() throws {
            let site = try TemporaryDirectory()
            try site.write(
                "pwa-config.json",
                #"{"version":1,"app":{"name":"Flags","bundleId":"dev.pwakit.flags","startUrl":"app://flags/index.html"},"origins":{"allowed":["flags"]},"flags":{"beta":true,"limit":3}}"#
            )
            try site.write(
                "index.html",
                """
                <!doctype html><script>
                addEventListener('load', async () => {
                  const beta = await PWAKit.call('flags', 'get', { key: 'beta' });
                  await PWAKit.call('report', 'log', { message: 'beta', data: beta });
                  await PWAKit.call('report', 'finish', { passed: 1, failed: 0 });
                });
                </script>
                """)
            let modules = try PWAKitBinary.run(["modules", "--json", site.url.path])
            #expect(modules.stdout.contains("\"flags\""), "\(modules.stderr)")
            let answers = try Self.bridge(site.url.path, [#"{"id":"f","module":"flags","action":"all"}"#])
            let all = answers.first { $0["id"] as? String == "f" }?["data"] as? [String: Any]
            #expect((all?["flags"] as? [String: Any])?["limit"] as? Int == 3)
            let run = try HostEndToEndTests.run(site.url.path)
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let logged = run.events("log").first { $0["message"] as? String == "beta" }?["data"] as? [String: Any]
            #expect(logged?["value"] as? Bool == true)
            #expect(logged?["source"] as? String == "default")
        }
    }
#endif
