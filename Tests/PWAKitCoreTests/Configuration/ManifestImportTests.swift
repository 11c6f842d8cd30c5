import Foundation
import Testing

@testable import PWAKitCore

@Suite("Manifest import")
struct ManifestImportTests {
    static let base = WebAppManifest(name: "Shop", shortName: "S", startURL: "/index.html")

    private func make(_ manifest: WebAppManifest?, _ options: ManifestImport.Options) throws -> ManifestImport.Result {
        try ManifestImport.makeConfiguration(manifest: manifest, options: options)
    }

    @Test func mapsTheManifest() throws {
        let manifest = WebAppManifest(
            name: "Shop", startURL: "./app/index.html", scope: "/app/", display: "fullscreen",
            orientation: "portrait-secondary",
            themeColor: "#0af", backgroundColor: "#102030")
        let result = try make(manifest, .init(origin: "https://shop.example.com"))
        let configuration = result.configuration
        #expect(configuration.app.name == "Shop")
        #expect(configuration.app.bundleId == "com.example.shop")
        #expect(configuration.app.startUrl == "https://shop.example.com/app/index.html")
        #expect(configuration.origins.allowed == ["shop.example.com/app/*"])
        #expect(configuration.appearance.displayMode == .fullscreen)
        #expect(configuration.appearance.orientationLock == .portrait)
        #expect(configuration.appearance.themeColor?.description == "#00AAFF")
        #expect(configuration.appearance.backgroundColor?.description == "#102030")
        #expect(
            result.notes == [
                #"bundleId "com.example.shop" derived from the start URL's host; pass --bundle-id to choose another"#,
                #"orientation "portrait-secondary" becomes portrait (either way up: a lock has no primary or secondary)"#,
            ])
        #expect(ConfigurationValidator().validate(configuration).isValid)
    }

    @Test(
        "display",
        arguments: [
            ("fullscreen", DisplayMode.fullscreen, false), ("standalone", .standalone, false),
            ("minimal-ui", .standalone, true), ("browser", .standalone, true), ("tv", .standalone, true),
        ])
    func display(value: String, expected: DisplayMode, noted: Bool) throws {
        var manifest = Self.base
        manifest.display = value
        let result = try make(manifest, .init(bundleId: "com.example.shop", origin: "https://example.com"))
        #expect(result.configuration.appearance.displayMode == expected)
        #expect(result.notes.contains { $0.hasPrefix("display") } == noted)
    }

    @Test(
        "orientation",
        arguments: [
            ("any", OrientationLock.any), ("natural", .any), ("portrait", .portrait), ("portrait-primary", .portrait),
            ("landscape", .landscape), ("landscape-secondary", .landscape), ("sideways", .any),
        ])
    func orientation(value: String, expected: OrientationLock) throws {
        var manifest = Self.base
        manifest.orientation = value
        let result = try make(manifest, .init(bundleId: "com.example.shop", origin: "https://example.com"))
        #expect(result.configuration.appearance.orientationLock == expected)
        // Nothing changes silently: a value mapped to another is noted.
        #expect(
            result.notes.contains { $0.hasPrefix("orientation") } == !["any", "natural", "portrait", "landscape"].contains(value))
    }

    @Test("every independent problem in one run; without a manifest the name problem says so")
    func allProblemsAtOnce() {
        let manifest = WebAppManifest(startURL: "/index.html", themeColor: "rebeccapurple", backgroundColor: "rgb(0,0,0)")
        #expect {
            try make(manifest, .init())
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.message.hasPrefix("4 problems:\n")
                && error.message.contains("  - no app name: the manifest has neither name nor short_name; pass --name")
                && error.message.contains("  - the manifest's start_url \"/index.html\" is relative")
                && error.message.contains("theme_color \"rebeccapurple\"") && error.message.contains("background_color")
        }
        #expect {
            try make(nil, .init(startURL: "https://a.example.com/"))
        } throws: { error in
            (error as? ConfigurationError)?.message == "no app name: there is no manifest to take it from; pass --name"
        }
    }

    @Test func optionsOverrideTheManifest() throws {
        var manifest = Self.base
        manifest.display = "fullscreen"
        manifest.themeColor = "#000"
        let result = try make(
            manifest,
            .init(
                name: "Override", bundleId: "com.example.override", startURL: "https://www.example.com/start",
                allowed: ["*.example.com"], auth: ["login.example.com"], external: ["github.com"],
                displayMode: .standalone, orientationLock: .landscape, statusBarStyle: .light, pullToRefresh: true,
                themeColor: "#FFF", backgroundColor: "#123"))
        let configuration = result.configuration
        #expect(
            configuration.app
                == AppSection(
                    name: "Override", bundleId: "com.example.override", startUrl: "https://www.example.com/start"))
        #expect(
            configuration.origins
                == OriginsSection(allowed: ["*.example.com"], auth: ["login.example.com"], external: ["github.com"]))
        #expect(configuration.appearance.displayMode == .standalone)
        #expect(configuration.appearance.statusBarStyle == .light)
        #expect(configuration.appearance.pullToRefresh)
        #expect(configuration.appearance.themeColor?.description == "#FFFFFF")
        #expect(configuration.appearance.backgroundColor?.description == "#112233")
        #expect(result.notes.isEmpty)
    }

    @Test func appStartURLs() throws {
        let result = try make(
            WebAppManifest(name: "Hello", startURL: "index.html"),
            .init(bundleId: "dev.pwakit.hello", origin: "app://hello", allowed: ["pwakit.dev"]))
        #expect(result.configuration.app.startUrl == "app://hello/index.html")
        #expect {
            try make(
                WebAppManifest(name: "Hello", startURL: "index.html"),
                .init(bundleId: "dev.pwakit.hello", origin: "app://hello"))
        } throws: { error in
            (error as? ConfigurationError)?.code == .missingValue
        }
    }

    @Test func absoluteStartURLNeedsNoOrigin() throws {
        let result = try make(WebAppManifest(name: "A", startURL: "https://a.example.org/x"), .init())
        #expect(result.configuration.app.startUrl == "https://a.example.org/x")
        #expect(result.configuration.origins.allowed == ["a.example.org"])
    }

    @Test func scopeOnAnotherOriginOrNotCoveringTheStartIsIgnored() throws {
        let elsewhere = try make(
            WebAppManifest(name: "A", startURL: "https://a.example.org/x", scope: "https://b.example.org/"), .init())
        #expect(elsewhere.configuration.origins.allowed == ["a.example.org"])
        #expect(elsewhere.notes.contains { $0.contains("not on the start URL's origin") })
        let outside = try make(WebAppManifest(name: "A", startURL: "https://a.example.org/x", scope: "/y/"), .init())
        #expect(outside.configuration.origins.allowed == ["a.example.org"])
        #expect(outside.notes.contains { $0.contains("outside it") })
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var manifest: WebAppManifest?
        var options: ManifestImport.Options
        var code: ConfigurationError.Code
        var message: String
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        .init(
            name: "no name", manifest: WebAppManifest(startURL: "https://a.com/"), options: .init(),
            code: .missingValue, message: "no app name: the manifest has neither name nor short_name; pass --name"),
        .init(
            name: "blank name", manifest: WebAppManifest(name: "  ", startURL: "https://a.com/"),
            options: .init(bundleId: "a.b"), code: .missingValue,
            message: "no app name: the manifest has neither name nor short_name; pass --name"),
        .init(
            name: "relative without origin", manifest: base, options: .init(), code: .missingValue,
            message:
                "the manifest's start_url \"/index.html\" is relative; pass --origin (e.g. https://example.com) or --start-url"
        ),
        .init(
            name: "no start URL at all", manifest: WebAppManifest(name: "A"), options: .init(), code: .missingValue,
            message: "the manifest has no start_url; pass --origin (e.g. https://example.com) or --start-url"),
        .init(
            name: "relative --start-url", manifest: base, options: .init(startURL: "/x"), code: .invalidOption,
            message: "--start-url \"/x\" must be an absolute URL such as https://example.com/"),
        .init(
            name: "relative --origin", manifest: base, options: .init(origin: "example.com"), code: .invalidOption,
            message: "--origin \"example.com\" must be absolute, like https://example.com or app://hello"),
        .init(
            name: "named theme colour",
            manifest: WebAppManifest(name: "A", startURL: "https://a.example.com/", themeColor: "rebeccapurple"),
            options: .init(), code: .manifestInvalid,
            message:
                "manifest theme_color \"rebeccapurple\" is not a hex colour (#RGB or #RRGGBB); pass --theme-color #RRGGBB"
        ),
        .init(
            name: "rgb background",
            manifest: WebAppManifest(name: "A", startURL: "https://a.example.com/", backgroundColor: "rgb(0,0,0)"),
            options: .init(), code: .manifestInvalid,
            message:
                "manifest background_color \"rgb(0,0,0)\" is not a hex colour (#RGB or #RRGGBB); pass --background-color #RRGGBB"
        ),
        .init(
            name: "bad colour option", manifest: base,
            options: .init(bundleId: "a.b", origin: "https://a.com", themeColor: "#12"), code: .invalidOption,
            message: "--theme-color \"#12\" is not a hex colour (#RGB or #RRGGBB)"),
        .init(
            name: "localhost needs a bundle id", manifest: base, options: .init(origin: "http://localhost:3000"),
            code: .missingValue,
            message:
                "cannot derive a bundle id from the start URL's host \"localhost\"; pass --bundle-id (e.g. com.example.app)"
        ),
        .init(
            name: "IP needs a bundle id", manifest: base, options: .init(origin: "https://10.0.0.1"),
            code: .missingValue,
            message:
                "cannot derive a bundle id from the start URL's host \"10.0.0.1\"; pass --bundle-id (e.g. com.example.app)"
        ),
        .init(
            name: "result invalid", manifest: base, options: .init(bundleId: "nodots", origin: "https://a.com"),
            code: .invalid, message: "the configuration made from the manifest and options is invalid"),
    ]

    @Test("fails clearly", arguments: failures)
    func fails(_ row: Failure) {
        #expect {
            try make(row.manifest, row.options)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.code == row.code && error.message == row.message
        }
    }

    @Test func parsesManifestBytes() throws {
        let manifest = try WebAppManifest(
            data: Data(
                #"{"name": "A", "short_name": "B", "start_url": ".", "icons": [{"src": "x.png"}], "display": "standalone", "name": "Last"}"#
                    .utf8))
        #expect(manifest.name == "Last")
        #expect(manifest.shortName == "B")
        #expect(manifest.startURL == ".")
        #expect(manifest.display == "standalone")
    }

    @Test(
        "rejects malformed manifests",
        arguments: [
            ("[]", "the manifest must be a JSON object, found array"),
            (
                "{",
                "the manifest is not valid JSON: line 1, column 2: unexpected end of document; expected a key in double quotes"
            ),
            (#"{"start_url": 1}"#, "manifest member start_url: expected a string, found number 1"),
            (#"{"theme_color": null}"#, "manifest member theme_color: expected a string, found null"),
        ])
    func malformed(text: String, message: String) {
        #expect {
            try WebAppManifest(data: Data(text.utf8))
        } throws: { error in
            (error as? ConfigurationError)?.code == .manifestInvalid
                && (error as? ConfigurationError)?.message == message
        }
    }

    @Test func oversizedManifestIsRejected() {
        #expect(throws: ConfigurationError.self) {
            try WebAppManifest(data: Data(repeating: 0x20, count: ConfigurationValidator.maximumSize + 1))
        }
    }

    @Test func locatesManifestsInDirectories() throws {
        let directory = try TemporaryFiles()
        #expect(throws: ConfigurationError.self) { try WebAppManifest.locate(directory.url) }
        let file = try directory.write("site.webmanifest", Data(#"{"name": "A"}"#.utf8))
        #expect(try WebAppManifest.locate(directory.url) == file)
        #expect(try WebAppManifest.read(at: directory.url).name == "A")
    }

    @Test(
        "resolves references",
        arguments: [
            ("./index.html", "https://example.com", "https://example.com/index.html"),
            ("index.html", "https://example.com/app/", "https://example.com/app/index.html"),
            ("/x", "https://example.com/app/", "https://example.com/x"),
            ("../x", "https://example.com/a/b/", "https://example.com/a/x"),
            ("index.html", "app://hello", "app://hello/index.html"),
            ("https://other.com/", "https://example.com", "https://other.com/"),
        ])
    func resolves(reference: String, base: String, expected: String) {
        #expect(ManifestImport.resolve(reference, against: base) == expected)
    }
}
