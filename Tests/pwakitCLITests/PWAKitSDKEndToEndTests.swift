#if WebKitGTK
    import Foundation
    import PWAKitCore
    import Testing

    /// A page written for the PWAKit project's SDK, shipping its own seed-style bridge object, runs
    /// every case of `Tests/HostPages/pwa-kit/contract.json` in the real WebKitGTK host: each message
    /// as that SDK posts it (a JSON string), each answer judged by the fields that SDK reads.
    @Suite(.serialized) struct PWAKitSDKEndToEndTests {
        @Test func everyMessageOfTheSDKIsAnsweredInRealWebKit() throws {
            let directory = HostEndToEndTests.pages.appendingPathComponent("pwa-kit")
            let contractText = try String(contentsOf: directory.appendingPathComponent("contract.json"), encoding: .utf8)
            let contract = try JSONParser.parse(contractText)
            let cases = contract["cases"]?.arrayValue ?? []
            let app = try TemporaryDirectory()
            try app.write(
                "bundle/index.html", String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8))
            try app.write("bundle/contract.js", "window.PWAKIT_CONTRACT = \(contractText);\n")
            let script = try app.write(
                "store.json", JSONSerializer.serialize(["store": ["products": contract["setup"]?["products"] ?? []]]))
            let features = JSONSerializer.serialize(contract["setup"]?["features"] ?? [:])
            let config = try app.write(
                "pwa-config.json",
                """
                {"version": 1,
                 "app": {"name": "PWAKit SDK page", "bundleId": "dev.pwakit.e2e.pwakitsdk", "startUrl": "app://pwakit-sdk/index.html"},
                 "origins": {"allowed": ["pwakit.dev"]},
                 "features": \(features)}
                """)
            let run = try HostEndToEndTests.run(
                config.path,
                [
                    "--bundle", app.url.appendingPathComponent("bundle").path, "--simulate", script.path,
                    "--print-to", app.url.appendingPathComponent("page.pdf").path,
                ])
            #expect(run.failures == [])
            #expect(run.status == 0, "\(run.events) \(run.stderr)")
            let finish = try #require(run.events("finish").first)
            // Every case and the detection check passed.
            #expect(finish["passed"] as? Int == cases.count + 1, "\(finish)")
            #expect(finish["failed"] as? Int == 0)
        }
    }
#endif
