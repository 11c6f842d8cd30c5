#if WebKitGTK
    import Foundation
    import Testing

    /// Policy in the real host: pop-ups without a gesture, feature flags and per-origin grants.
    @Suite(.serialized) struct HostPolicyEndToEndTests {
        @Test func windowOpenWithoutAGestureIsBlockedUnlessPopupsAreAllowed() throws {
            let app = try TemporaryDirectory()
            func config(_ expect: String) throws -> String {
                try app.write(
                    "\(expect)/pwa-config.json",
                    """
                    {"version": 1,
                     "app": {"name": "Popups", "bundleId": "dev.pwakit.e2e.popups",
                             "startUrl": "app://popups/index.html?expect=\(expect)"},
                     "origins": {"allowed": ["pwakit.dev"], "external": ["github.com"]}}
                    """
                ).path
            }
            let bundle = ["--bundle", HostEndToEndTests.pages.appendingPathComponent("popups").path]
            let blocked = try HostEndToEndTests.run(try config("blocked"), bundle)
            #expect(blocked.status == 0, "\(blocked.events) \(blocked.stderr)")
            #expect(blocked.failures == [])
            #expect(blocked.events("external").isEmpty)
            #expect(blocked.events("committed").compactMap { $0["url"] as? String } == ["app://popups/index.html?expect=blocked"])

            let allowed = try HostEndToEndTests.run(try config("allowed"), bundle + ["--allow-popups"])
            #expect(allowed.status == 0, "\(allowed.events) \(allowed.stderr)")
            // Allowed pop-ups follow the navigation policy: the external one goes to the desktop,
            // the app's own page loads in the app's view.
            #expect(allowed.events("external").compactMap { $0["url"] as? String } == ["https://github.com/scripted-popup"])
            #expect(
                allowed.events("committed").compactMap { $0["url"] as? String }
                    == ["app://popups/index.html?expect=allowed", "app://popups/other.html"])
        }

        @Test func flagsAndGrantsRefuseCallsWithTheirOwnCodes() throws {
            let server = try LoopbackServer(directory: HostEndToEndTests.pages.appendingPathComponent("grants"))
            let app = try TemporaryDirectory()
            let origin = "127.0.0.1:\(server.port)"
            let config = try app.write(
                "pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "Grants", "bundleId": "dev.pwakit.e2e.grants", "startUrl": "http://\(origin)/index.html"},
                 "origins": {"allowed": ["\(origin)"],
                             "grants": {"\(origin)": ["platform", "report", "lifecycle", "clipboard.read", "haptics"]}},
                 "features": {"haptics": false}}
                """)
            let run = try HostEndToEndTests.run(config.path)
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            #expect(run.failures == [])
            #expect(run.events("finish").first?["passed"] as? Int == 6)
        }
    }
#endif
