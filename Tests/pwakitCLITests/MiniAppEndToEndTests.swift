#if WebKitGTK
    import Foundation
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The mini-app runtime end to end: a real `pwakit server`, releases bundled and published
    /// with the binary, installed into a store and opened from it in WebKitGTK — signed in
    /// through `session`, with the grants of its catalog entry, under the ready rule, and offline.
    @Suite(.serialized) struct MiniAppEndToEndTests {
        /// A `pwakit server` process on a free loopback port.
        final class PlatformServer {
            let process = Process()
            let url: String

            init(directory: URL, seed: URL, arguments: [String] = []) throws {
                let log = directory.appendingPathComponent("server.log")
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                process.executableURL = try PWAKitBinary.locate()
                process.arguments =
                    [
                        "server", "--port", "0", "--password-cost", "16", "--data-dir",
                        directory.appendingPathComponent("data").path,
                        "--seed", seed.path,
                    ] + arguments
                process.standardOutput = try FileHandle(forWritingTo: log)
                process.standardError = FileHandle.nullDevice
                try process.run()
                // NB: the server prints its URL once it listens; wait for that line, not a fixed time
                // (up to 120 s: a debug build starting among suites that load pages can take long),
                // and no longer once it has exited.
                var found: String?
                for _ in 0..<12_000 where found == nil && process.isRunning {
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    found = text.split(separator: "\n").first { $0.contains("listening on") }.flatMap { line in
                        line.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
                    }
                    if found == nil { usleep(10_000) }
                }
                guard let found else {
                    process.terminate()
                    throw CocoaError(.fileReadNoSuchFile)
                }
                url = found
            }

            func stop() {
                guard process.isRunning else { return }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }

            deinit { stop() }
        }

        /// One JSON call to the server, synchronously.
        static func call(_ method: String, _ url: String, json: [String: Any]? = nil, headers: [String: String] = [:]) throws -> (
            Int, [String: Any]
        ) {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            if let json {
                request.httpBody = try JSONSerialization.data(withJSONObject: json)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (Int, Data) = (0, Data())
            URLSession.shared.dataTask(with: request) { data, response, _ in
                result = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
                done.signal()
            }.resume()
            done.wait()
            return (result.0, (try? JSONSerialization.jsonObject(with: result.1)) as? [String: Any] ?? [:])
        }

        /// The mini-app's page: checks what the page itself can judge, logs what the test judges.
        static func page(framePort: Int, callsReady: Bool) -> String {
            """
            <!doctype html><meta charset="utf-8"><title>Quiz</title>
            <body><h1 id="who">…</h1>
            <script>
            const results = [];
            function check(name, ok, detail) { results.push({ name: name, ok: !!ok, detail: String(detail) }); }
            let frame = null;
            window.addEventListener('message', (event) => { frame = event.data; });
            async function outcome(promise) {
              try { return { value: await promise }; } catch (error) { return { code: error.code }; }
            }
            window.addEventListener('load', async () => {
              const user = await outcome(PWAKit.call('session', 'getUser'));
              const launch = await outcome(PWAKit.call('session', 'getLaunchCode'));
              document.getElementById('who').textContent = user.value ? 'Signed in as ' + user.value.displayName : 'Signed out';
              const clipboard = await outcome(PWAKit.call('clipboard', 'read'));
              check('a module the catalog entry does not ask for is refused', clipboard.code === 'permission_denied', clipboard.code);
              const haptics = await outcome(PWAKit.call('haptics', 'impact', { style: 'light' }));
              check('a module the catalog entry asks for answers', !haptics.code, haptics.code);
              // NB: ready once the page works, before the frame's wait: a release on probation must
              // not be rolled back because a loaded machine loads the frame slowly.
              if (\(callsReady)) await PWAKit.ready();
              const f = document.createElement('iframe');
              f.src = 'http://127.0.0.1:\(framePort)/frame.html';
              document.body.appendChild(f);
              // NB: up to 40 s on a loaded machine.
              for (let i = 0; i < 2000 && !frame; i++) await new Promise((r) => setTimeout(r, 20));
              check('the cross-origin frame loaded', frame && frame.loaded === true, JSON.stringify(frame));
              check('the cross-origin frame has no bridge (no session)', frame && frame.webkit === 'undefined', frame && frame.webkit);
              const seed = {
                nativeApp: window.NATIVE_APP === true, platform: window.NATIVE_PLATFORM || null,
                faceID: typeof window.nativeFaceID === 'function' ? await window.nativeFaceID('Unlock the quiz') : null,
              };
              await PWAKit.call('report', 'log', { message: 'session', data: { user: user, launch: launch, seed: seed } });
              if (\(callsReady)) {
                await PWAKit.call('report', 'finish', { passed: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length, data: results });
              }
            });
            </script>
            """
        }

        @Test func signedInFromTheStoreRolledBackWhenNotReadyAndOffline() throws {
            let work = try TemporaryDirectory()
            let frames = try LoopbackServer(directory: HostEndToEndTests.pages.appendingPathComponent("web"))
            let keys = try PWAKitBinary.run(["keys", "generate", "--output", work.url.appendingPathComponent("key.json").path])
            let publicKey = try #require(
                ((try JSONSerialization.jsonObject(with: Data(keys.stdout.utf8))) as? [String: Any])?["publicKey"] as? String)
            let seed = try work.write(
                "seed.json",
                """
                {"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"},
                          {"email":"ada@example.com","password":"ada-password-1","displayName":"Ada","role":"user"}],
                 "apps":[{"id":"quiz","name":"Quiz","permissions":["haptics"],"publisherKeys":["\(publicKey)"]}]}
                """)
            let server = try PlatformServer(directory: work.url, seed: seed)
            let admin = ["PWAKIT_PASSWORD": "admin-password"]
            let ada = ["PWAKIT_PASSWORD": "ada-password-1"]
            let store = work.url.appendingPathComponent("store").path
            let account = ["--server", server.url, "--email", "ada@example.com"]
            let data = work.url.appendingPathComponent("website-data").path
            func publish(_ version: String, callsReady: Bool) throws {
                let site = work.url.appendingPathComponent("site-\(version)")
                try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
                try Data(Self.page(framePort: frames.port, callsReady: callsReady).utf8).write(
                    to: site.appendingPathComponent("index.html"))
                let release = work.url.appendingPathComponent("release-\(version).json").path
                let bundled = try PWAKitBinary.run([
                    "bundle", site.path, "--app-id", "quiz", "--version", version, "--key",
                    work.url.appendingPathComponent("key.json").path, "--output", release,
                ])
                #expect(bundled.status == 0, "\(bundled.stderr)")
                let published = try PWAKitBinary.run(
                    ["publish", site.path, "--release", release, "--server", server.url, "--email", "admin@example.com"],
                    environment: admin)
                #expect(published.status == 0, "\(published.stderr)")
                let installed = try PWAKitBinary.run(
                    ["miniapp", "install", "quiz", "--trust-key", publicKey, "--now", "--store", store] + account,
                    environment: ada)
                #expect(installed.status == 0, "\(installed.stderr)")
            }
            func open(_ extra: [String] = []) throws -> HostEndToEndTests.HostRun {
                let run = try PWAKitBinary.run(
                    [
                        "miniapp", "open", "quiz", "--store", store, "--report", "--open-urls", "print", "--data-dir", data,
                        "--timeout", "60", "--allow", "127.0.0.1:\(frames.port)",
                    ] + extra,
                    environment: ada)
                let events = run.stdout.split(separator: "\n").compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                }
                return HostEndToEndTests.HostRun(status: run.status, events: events, stderr: run.stderr)
            }
            func session(_ run: HostEndToEndTests.HostRun) -> [String: Any] {
                run.events("log").first { $0["message"] as? String == "session" }?["data"] as? [String: Any] ?? [:]
            }

            // 1. Signed in: the page learns who the user is and gets a launch code its backend exchanges once.
            try publish("1.0.0", callsReady: true)
            let listed = try PWAKitBinary.run(["miniapp", "list", "--store", store] + account, environment: ada)
            #expect(listed.stdout.contains("quiz\tQuiz\t1.0.0"), "\(listed.stdout) \(listed.stderr)")
            let first = try open(account)
            #expect(first.status == 0, "\(first.events) \(first.stderr)")
            #expect(first.failures == [])
            #expect(first.events("releaseConfirmed").count == 1)
            let signedIn = session(first)
            #expect(
                (signedIn["user"] as? [String: Any])?["value"].flatMap { ($0 as? [String: Any])?["email"] as? String }
                    == "ada@example.com")
            let code = try #require(((signedIn["launch"] as? [String: Any])?["value"] as? [String: Any])?["code"] as? String)
            let (_, login) = try Self.call(
                "POST", server.url + "/v1/auth/login", json: ["email": "admin@example.com", "password": "admin-password"])
            let token = try #require(login["accessToken"] as? String)
            let (_, credential) = try Self.call(
                "POST", server.url + "/v1/apps/quiz/credentials", headers: ["Authorization": "Bearer \(token)"])
            let basic =
                "Basic "
                + Data("\(credential["credentialId"] as? String ?? ""):\(credential["secret"] as? String ?? "")".utf8)
                .base64EncodedString()
            let (exchanged, who) = try Self.call(
                "POST", server.url + "/v1/launch/exchange", json: ["code": code], headers: ["Authorization": basic])
            #expect(exchanged == 200)
            #expect((who["user"] as? [String: Any])?["email"] as? String == "ada@example.com")
            let (replayed, refusal) = try Self.call(
                "POST", server.url + "/v1/launch/exchange", json: ["code": code], headers: ["Authorization": basic])
            #expect(replayed == 400)
            #expect((refusal["error"] as? [String: Any])?["code"] as? String == "invalid_launch_code")

            // 2. A release that never reports ready is rolled back and marked bad; the next launch runs 1.0.0.
            let statusBefore = try PWAKitBinary.run(["miniapp", "status", "--store", store, "--json"])
            let v1 = try #require(
                ((try JSONSerialization.jsonObject(with: Data(statusBefore.stdout.utf8)) as? [String: Any])?["apps"]
                    as? [[String: Any]])?
                    .first?["active"] as? String)
            try publish("2.0.0", callsReady: false)
            let broken = try open(account + ["--ready-timeout", "2"])
            #expect(broken.status == 6, "\(broken.events) \(broken.stderr)")
            #expect(broken.events("rolledBack").first?["version"] as? String == "2.0.0")
            let statusAfter = try PWAKitBinary.run(["miniapp", "status", "--store", store, "--json", "--verify"])
            #expect(statusAfter.status == 0, "\(statusAfter.stderr)")
            let app =
                ((try JSONSerialization.jsonObject(with: Data(statusAfter.stdout.utf8)) as? [String: Any])?["apps"]
                as? [[String: Any]])?.first
            #expect(app?["active"] as? String == v1)
            #expect((app?["bad"] as? [String])?.count == 1)
            let again = try PWAKitBinary.run(
                ["miniapp", "install", "quiz", "--trust-key", publicKey, "--now", "--store", store] + account, environment: ada)
            #expect(again.stdout.contains("up to date"), "\(again.stdout) \(again.stderr)")

            // 3. Checked at launch: a newer release is installed for the next launch, which runs it.
            let published = try PWAKitBinary.run(
                [
                    "bundle", work.url.appendingPathComponent("site-1.0.0").path, "--app-id", "quiz", "--version", "3.0.0",
                    "--key",
                    work.url.appendingPathComponent("key.json").path, "--output",
                    work.url.appendingPathComponent("release-3.json").path,
                ])
            #expect(published.status == 0, "\(published.stderr)")
            let uploaded = try PWAKitBinary.run(
                [
                    "publish", work.url.appendingPathComponent("site-1.0.0").path, "--release",
                    work.url.appendingPathComponent("release-3.json").path, "--server", server.url, "--email",
                    "admin@example.com",
                ],
                environment: admin)
            #expect(uploaded.status == 0, "\(uploaded.stderr)")
            let checking = try open(account + ["--trust-key", publicKey])
            #expect(checking.status == 0, "\(checking.events) \(checking.stderr)")
            #expect(checking.events("miniapp").first?["version"] as? String == "1.0.0")
            #expect(checking.events("updateInstalled").first?["version"] as? String == "3.0.0")
            let updated = try open(account + ["--seed-globals"])
            #expect(updated.status == 0, "\(updated.events) \(updated.stderr)")
            #expect(updated.events("miniapp").first?["version"] as? String == "3.0.0")
            #expect(updated.events("releaseConfirmed").count == 1)
            let globals = session(updated)["seed"] as? [String: Any]
            #expect(globals?["nativeApp"] as? Bool == true)
            #expect(globals?["platform"] as? String == "linux")
            #expect(globals?["faceID"] is Bool, "\(String(describing: globals))")
            #expect((session(first)["seed"] as? [String: Any])?["nativeApp"] as? Bool == false)

            // 4. Offline: the server is gone; the app opens from the store, signed out.
            server.stop()
            let offline = try open(account)
            #expect(offline.status == 0, "\(offline.events) \(offline.stderr)")
            #expect(offline.failures == [])
            #expect(offline.stderr.contains("opening signed out"))
            #expect((session(offline)["user"] as? [String: Any])?["code"] as? String == "session.not_signed_in")
            #expect(offline.events("committed").first?["url"] as? String == "app://quiz/index.html")

            // 5. A kept catalog that cannot be read: the app still opens, with nothing the catalog
            // would grant, and says why.
            let catalogFile = URL(fileURLWithPath: store).appendingPathComponent("catalog/catalog.json")
            #expect(FileManager.default.fileExists(atPath: catalogFile.path))
            try Data("{not json".utf8).write(to: catalogFile)
            let damaged = try open(account)
            // NB: the page's own check that a module its catalog entry asks for answers fails (status 1):
            // nothing is granted.
            #expect(damaged.status == 1, "\(damaged.events) \(damaged.stderr)")
            let checks = (damaged.events("finish").first?["data"] as? [[String: Any]]) ?? []
            let granted = checks.first { $0["name"] as? String == "a module the catalog entry asks for answers" }
            #expect(granted?["detail"] as? String == "permission_denied", "\(checks)")
            #expect(checks.filter { ($0["ok"] as? Bool) == false }.count == 1, "\(checks)")
            #expect(damaged.stderr.contains("store_corrupt (catalog)"), "\(damaged.stderr)")
            #expect(damaged.stderr.contains("quiz opens with no permissions from the catalog"), "\(damaged.stderr)")
        }
    }
#endif
