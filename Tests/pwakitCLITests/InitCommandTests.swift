import Foundation
import Testing

@Suite("pwakit init")
struct InitCommandTests {
    static let manifest = """
        {
          "name": "Hello PWAKit", "short_name": "Hello", "start_url": "./index.html",
          "display": "fullscreen", "orientation": "landscape-primary",
          "theme_color": "#3b5", "background_color": "#ffffff", "icons": []
        }
        """

    @Test func writesAValidConfigurationBesideTheManifest() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("site/manifest.json", Self.manifest)
        let run = try PWAKitBinary.run(
            ["init", "site", "--origin", "app://hello", "--bundle-id", "dev.pwakit.hello", "--allow", "pwakit.dev"],
            in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote "))
        #expect(run.stdout.contains("site/pwa-config.json"))
        let written = try JSONSerialization.jsonObject(with: Data(scratch.read("site/pwa-config.json").utf8))
        let object = try #require(written as? [String: Any])
        let app = try #require(object["app"] as? [String: Any])
        #expect(app["name"] as? String == "Hello PWAKit")
        #expect(app["bundleId"] as? String == "dev.pwakit.hello")
        #expect(app["startUrl"] as? String == "app://hello/index.html")
        let appearance = try #require(object["appearance"] as? [String: Any])
        #expect(appearance["displayMode"] as? String == "fullscreen")
        #expect(appearance["orientationLock"] as? String == "landscape")
        #expect(appearance["themeColor"] as? String == "#33BB55")
        #expect(appearance["backgroundColor"] as? String == "#FFFFFF")

        let check = try PWAKitBinary.run(["validate", "site"], in: scratch.url)
        #expect(check.status == 0)
        #expect(check.stdout == "site/pwa-config.json: valid\n")
    }

    @Test func derivesBundleIdAndAllowedOriginFromAnHTTPSStartURL() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write(
            "manifest.json", #"{"short_name": "Shop", "start_url": "/shop/index.html", "scope": "/shop/"}"#)
        let run = try PWAKitBinary.run(["init", "--origin", "https://www.example.com"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("note: bundleId \"com.example.www\" derived from the start URL's host"))
        let text = try scratch.read("pwa-config.json")
        #expect(text.contains(#""bundleId": "com.example.www""#))
        #expect(text.contains(#""startUrl": "https://www.example.com/shop/index.html""#))
        #expect(text.contains(#""allowed": ["www.example.com/shop/*"]"#))
        #expect(text.hasPrefix("{\n  \"$schema\": \"pwa-config.schema.json\",\n  \"version\": 1,\n  \"app\": {"))
        // The schema it names is written beside it; an existing one is kept, unless --force.
        let schema = try scratch.read("pwa-config.schema.json")
        #expect(schema.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
        #expect(run.stdout.contains("pwa-config.schema.json"))
        try scratch.write("pwa-config.schema.json", "{}")
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent("pwa-config.json"))
        let kept = try PWAKitBinary.run(["init", "--origin", "https://www.example.com"], in: scratch.url)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try scratch.read("pwa-config.schema.json") == "{}")
        let forced = try PWAKitBinary.run(["init", "--origin", "https://www.example.com", "--force"], in: scratch.url)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try scratch.read("pwa-config.schema.json") == schema)
        let printed = try PWAKitBinary.run(["schema"], in: scratch.url)
        #expect(printed.status == 0)
        #expect(printed.stdout == schema)
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("manifest.json", #"{"name": "A", "start_url": "https://a.example.com/"}"#)
        try scratch.write("pwa-config.json", "keep me")
        let refused = try PWAKitBinary.run(["init"], in: scratch.url)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("already exists; pass --force to replace it"))
        #expect(try scratch.read("pwa-config.json") == "keep me")

        let forced = try PWAKitBinary.run(["init", "--force"], in: scratch.url)
        #expect(forced.status == 0)
        #expect(try scratch.read("pwa-config.json").contains(#""bundleId": "com.example.a""#))
    }

    @Test func writesToAnExplicitOutput() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("manifest.json", #"{"name": "A", "start_url": "https://a.example.com/"}"#)
        let run = try PWAKitBinary.run(
            [
                "init", "manifest.json", "--output", "out.json", "--bundle-id", "com.example.x", "--status-bar-style",
                "dark",
            ],
            in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try scratch.read("out.json")
        #expect(text.contains(#""statusBarStyle": "dark""#))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pwa-config.json").path))
    }

    @Test func rejectsNonHexColourNamingTheMember() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write(
            "manifest.json", #"{"name": "A", "start_url": "https://a.example.com/", "theme_color": "red"}"#)
        let run = try PWAKitBinary.run(["init"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("manifest theme_color \"red\" is not a hex colour (#RGB or #RRGGBB)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pwa-config.json").path))
    }

    @Test func relativeStartURLNeedsAnOrigin() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("manifest.json", #"{"name": "A", "start_url": "./index.html"}"#)
        let run = try PWAKitBinary.run(["init"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("start_url \"./index.html\" is relative; pass --origin"))
    }

    @Test func invalidResultIsReportedAndNotWritten() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("manifest.json", #"{"name": "A", "start_url": "https://a.example.com/"}"#)
        let run = try PWAKitBinary.run(["init", "--allow", "*.", "--bundle-id", "x"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("origins.allowed[0]: \"*.\": empty label"))
        #expect(run.stderr.contains("app.bundleId:"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pwa-config.json").path))
    }

    @Test func missingManifestIsUnreadable() throws {
        let scratch = try TemporaryDirectory()
        let run = try PWAKitBinary.run(["init", "nothing-here.json"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no such file or directory"))
    }

    @Test func malformedManifestIsInvalid() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("manifest.json", #"{"name": 42}"#)
        let run = try PWAKitBinary.run(["init"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("manifest member name: expected a string, found number 42"))
    }

    @Test func worksFromFlagsAloneWithoutAManifest() throws {
        let scratch = try TemporaryDirectory()
        let run = try PWAKitBinary.run(
            ["init", "--name", "Dev", "--start-url", "http://localhost:5173/", "--bundle-id", "dev.example.local"],
            in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.read("pwa-config.json").contains(#""allowed": ["localhost:5173"]"#))
    }

    @Test func badEnumOptionIsAUsageError() throws {
        let scratch = try TemporaryDirectory()
        let run = try PWAKitBinary.run(["init", "--display-mode", "weird"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("\"weird\" is not one of standalone, fullscreen"))
    }
}
