#if WebKitGTK
    import Foundation
    import Testing

    /// Shared links end to end: a share queued by `pwakit share` while nothing sends it, then the
    /// launcher's page, signed in, sends it and shares another through the `posts` module; the real
    /// server fetches both pages from a local site and the page shows them `ready` with their titles.
    @Suite(.serialized) struct LauncherSharesEndToEndTests {
        @Test func sharedLinksReachThePageReady() throws {
            let work = try TemporaryDirectory()
            try work.write("site/first.html", "<html><head><title>Queued While Offline</title></head></html>")
            try work.write(
                "site/second.html",
                #"<html><head><meta property="og:title" content="Shared From The Page"></head></html>"#)
            let site = try LauncherEndToEndTests.Running(
                URL(fileURLWithPath: "/usr/bin/python3"),
                ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", work.url.appendingPathComponent("site").path],
                log: work.url.appendingPathComponent("site.log"), environment: ["PYTHONUNBUFFERED": "1"])
            var port: String?
            // NB: up to 120 s on a loaded machine.
            for _ in 0..<6_000 where port == nil && site.process.isRunning {
                port = site.text.split(separator: " ").drop { $0 != "port" }.dropFirst().first.map(String.init)
                if port == nil { usleep(20_000) }
            }
            let sitePort = try #require(port, "the local site did not start: \(site.text)")
            let seed = try work.write(
                "seed.json",
                #"{"users":[{"email":"ada@example.com","password":"ada-password-1","displayName":"Ada Lovelace","role":"user"}]}"#
            )
            let server = try MiniAppEndToEndTests.PlatformServer(
                directory: work.url, seed: seed, arguments: ["--link-resolve", "pages.test:\(sitePort):127.0.0.1"])
            defer { server.stop() }

            // What a share extension does with no app running: the share waits in the outbox.
            let outbox = work.url.appendingPathComponent("shares").path
            let queued = try PWAKitBinary.run(["share", "http://pages.test:\(sitePort)/first.html", "--outbox", outbox])
            #expect(queued.status == 0, "\(queued.stderr)")

            let steps = [
                ##"{"waitFor": "#email"}"##, ##"{"fill": {"#email": "ada@example.com", "#password": "ada-password-1"}}"##,
                ##"{"click": "#sign-in"}"##, ##"{"waitForText": "Queued While Offline"}"##,
                ##"{"fill": {"#share-url": "http://pages.test:\##(sitePort)/second.html", "#share-note": "for Friday"}}"##,
                ##"{"click": "#share"}"##, ##"{"waitForText": "Shared From The Page"}"##,
                ##"{"waitFor": "#shares li:nth-child(2) .status.ready"}"##,
                ##"{"waitFor": "#shares li:nth-child(1) .status.ready"}"##,
            ]
            let tour = try work.write("tour.json", ##"{"timeoutSeconds": 90, "steps": [\##(steps.joined(separator: ","))]}"##)
            let launcher = try LauncherEndToEndTests.Running(
                try PWAKitBinary.locate(),
                [
                    "launcher", "--server", server.url, "--store", work.url.appendingPathComponent("store").path, "--data-dir",
                    work.url.appendingPathComponent("launcher").path, "--outbox", outbox, "--tour", tour.path,
                ], log: work.url.appendingPathComponent("launcher.log"))
            let status = launcher.wait()
            let failed = launcher.events.filter { $0["event"] as? String == "tourStep" && $0["ok"] as? Bool == false }
            #expect(status == 0, "\(failed) \(launcher.text.suffix(2000))")
            #expect(try PWAKitBinary.run(["share", "--list", "--outbox", outbox]).stdout.isEmpty, "the queued share was sent")
            #expect(site.text.contains("GET /first.html") && site.text.contains("GET /second.html"), "\(site.text)")
        }
    }
#endif
