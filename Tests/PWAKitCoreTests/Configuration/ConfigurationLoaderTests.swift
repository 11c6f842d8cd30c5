import Foundation
import Testing

@testable import PWAKitCore

@Suite("Configuration loader")
struct ConfigurationLoaderTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let minimal = Data(
        #"{"version": 1, "app": {"name": "A", "bundleId": "com.example.a", "startUrl": "https://example.com/"}, "origins": {"allowed": ["example.com"]}}"#
            .utf8)

    @Test func loadsTheHelloExample() throws {
        let configuration = try ConfigurationLoader.load(
            from: Self.repositoryRoot.appendingPathComponent("Examples/hello"))
        #expect(configuration.app.name == "Hello PWAKit")
        #expect(configuration.app.bundleId == "dev.pwakit.hello")
        #expect(configuration.app.startUrl == "app://hello/index.html")
        #expect(configuration.origins.allowed.contains("*.pwakit.dev"))
        #expect(configuration.origins.external.contains("github.com"))
        let policy = OriginPolicy(configuration: configuration)
        #expect(policy.classify(configuration.app.startUrl) == .allowed)
        #expect(policy.classify("https://docs.pwakit.dev/") == .allowed)
        #expect(policy.classify("https://github.com/") == .external)
    }

    @Test func theInvalidExampleIsInvalid() throws {
        #expect {
            try ConfigurationLoader.load(fromPath: Self.repositoryRoot.appendingPathComponent("Examples/invalid").path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.code == .invalid && error.report?.errors.count == 11
        }
    }

    @Test func missingSectionsTakeTheirDefaults() throws {
        let configuration = try ConfigurationLoader.load(from: Self.minimal)
        #expect(configuration.features == FeatureFlags())
        #expect(configuration.features.healthkit == false)
        #expect(configuration.features.iap == false)
        #expect(configuration.features.haptics == true)
        #expect(configuration.appearance == AppearanceSection())
        #expect(configuration.origins.auth.isEmpty)
        #expect(configuration.origins.external.isEmpty)
        #expect(configuration.origins.grants == nil)
        #expect(configuration.notifications == nil)
    }

    @Test func acceptsAByteOrderMark() throws {
        let configuration = try ConfigurationLoader.load(from: Data([0xEF, 0xBB, 0xBF]) + Self.minimal)
        #expect(configuration.app.name == "A")
    }

    @Test func anOutOfRangeNumberInAnUnknownKeyIsOnlyAWarning() throws {
        let data = Data(
            #"{"version": 1, "x": 1e999, "app": {"name": "A", "bundleId": "com.example.a", "startUrl": "https://example.com/"}, "origins": {"allowed": ["example.com"]}}"#
                .utf8)
        let (configuration, report) = try ConfigurationLoader.loadReporting(from: data)
        #expect(configuration.app.bundleId == "com.example.a")
        #expect(report.warnings.map(\.path) == ["x"])
    }

    @Test func warningsAreReturnedNotThrown() throws {
        let data = Data(
            #"{"version": 1, "future": true, "app": {"name": "A", "bundleId": "com.example.a", "startUrl": "https://example.com/"}, "origins": {"allowed": ["example.com"]}}"#
                .utf8)
        let (configuration, report) = try ConfigurationLoader.loadReporting(from: data)
        #expect(configuration.app.name == "A")
        #expect(report.warnings.map(\.path) == ["future"])
    }

    @Test func invalidJSONHasItsOwnCode() {
        #expect {
            try ConfigurationLoader.load(from: Data("{\"version\": 1,".utf8))
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.code == .invalidJSON && error.message.contains("line 1, column 15")
        }
    }

    @Test func invalidConfigurationCarriesTheWholeReport() {
        let data = Data(
            #"{"version": 1, "app": {"name": "", "bundleId": "x", "startUrl": "https://a.com/"}, "origins": {"allowed": ["b.com", "*."]}}"#
                .utf8)
        #expect {
            try ConfigurationLoader.load(from: data)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let paths = error.report?.errors.map(\.path) ?? []
            return error.code == .invalid && error.message == "the configuration has 4 errors"
                && paths.sorted() == ["app.bundleId", "app.name", "app.startUrl", "origins.allowed[1]"]
                && error.description.contains(#"origins.allowed[1]: "*.": empty label"#)
        }
    }

    @Test func encodingRoundTrips() throws {
        let original = PWAConfiguration(
            app: AppSection(
                name: "Ünïcode \"quoted\"", bundleId: "com.example.a", startUrl: "https://example.com/a?b=c"),
            origins: OriginsSection(
                allowed: ["example.com", "*.example.com"], auth: ["login.example.com"], external: ["github.com"],
                grants: ["example.com": ["haptics"], "a.example.com": ["share.share", "platform"]]),
            features: FeatureFlags(haptics: false, iap: true),
            appearance: AppearanceSection(
                displayMode: .fullscreen, pullToRefresh: true, statusBarStyle: .light, orientationLock: .landscape,
                backgroundColor: HexColor(red: 1, green: 2, blue: 3), themeColor: HexColor(red: 255, green: 0, blue: 16)
            ),
            notifications: NotificationsSection(provider: .apns))
        let data = original.encodedJSON()
        let (decoded, report) = try ConfigurationLoader.loadReporting(from: data)
        #expect(decoded == original)
        #expect(report.issues.isEmpty)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"app\": {\n    \"name\": \"Ünïcode \\\"quoted\\\"\""))
        #expect(text.contains(#""grants": {"#))
        #expect(text.contains(##""backgroundColor": "#010203""##))
        #expect(text.hasSuffix("}\n"))
        // The same value through JSONEncoder decodes to the same configuration too.
        let viaEncoder = try JSONDecoder().decode(PWAConfiguration.self, from: JSONEncoder().encode(original))
        #expect(viaEncoder == original)
    }

    @Test func locatesFilesAndDirectories() throws {
        let directory = try TemporaryFiles()
        let file = try directory.write("pwa-config.json", Self.minimal)
        #expect(try ConfigurationLoader.locate(directory.url) == file)
        #expect(try ConfigurationLoader.locate(file) == file)
        #expect(try ConfigurationLoader.load(from: directory.url).app.name == "A")

        let empty = try TemporaryFiles()
        #expect {
            try ConfigurationLoader.locate(empty.url)
        } throws: { error in
            (error as? ConfigurationError)?.code == .unreadable
                && (error as? ConfigurationError)?.message == "no pwa-config.json in directory \(empty.url.path)"
        }
        #expect {
            try ConfigurationLoader.load(from: empty.url.appendingPathComponent("missing.json"))
        } throws: { error in
            (error as? ConfigurationError)?.code == .unreadable
        }
    }

    @Test func explicitPathWinsOverSearchDirectories() throws {
        let first = try TemporaryFiles()
        let second = try TemporaryFiles()
        let secondFile = try second.write("pwa-config.json", Self.minimal)
        #expect(
            try ConfigurationLoader.locate(explicitPath: nil, searchDirectories: [first.url, second.url]) == secondFile)
        let explicit = try first.write("custom.json", Self.minimal)
        #expect(
            try ConfigurationLoader.locate(explicitPath: explicit.path, searchDirectories: [second.url]) == explicit)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.locate(
                explicitPath: first.url.appendingPathComponent("nope.json").path, searchDirectories: [second.url])
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.locate(explicitPath: nil, searchDirectories: [first.url])
        }
    }

    @Test func readsAtMostOneByteBeyondTheLimit() throws {
        let directory = try TemporaryFiles()
        let file = try directory.write(
            "pwa-config.json", Data(repeating: 0x20, count: 3 * ConfigurationValidator.maximumSize))
        let data = try ConfigurationLoader.readData(at: file)
        #expect(data.count == ConfigurationValidator.maximumSize + 1)
        #expect {
            try ConfigurationLoader.load(from: file)
        } throws: { error in
            (error as? ConfigurationError)?.report?.issues.first?.code == .tooLarge
        }
    }
}

/// A fresh temporary directory, removed on deinit.
final class TemporaryFiles {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
