import Foundation
import PWAKitCore
import Testing

@testable import PWAKitHost

@Suite struct AppLaunchTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    @Test func aDirectoryWithAnAppStartURLServesThatDirectory() throws {
        let launch = try AppLaunch.resolve(Self.examples.appendingPathComponent("hello").path)
        #expect(launch.startURL == "app://hello/index.html")
        #expect(launch.appID == "hello")
        #expect(launch.bundleRoot?.lastPathComponent == "hello")
        #expect(launch.configuration.app.bundleId == "dev.pwakit.hello")
    }

    @Test func anInvalidConfigurationIsAnErrorWithItsReport() {
        #expect {
            try AppLaunch.resolve(Self.examples.appendingPathComponent("invalid").path)
        } throws: { error in
            guard let error = error as? HostError else { return false }
            return error.code == .invalidArgument && error.message.contains("origins")
        }
        #expect(throws: HostError.self) { try AppLaunch.resolve("/nonexistent/pwa-config.json") }
    }

    @Test func aURLRunsAsAnAdHocAppOfItsOwnOrigin() throws {
        let launch = try AppLaunch.resolve("https://example.com:8443/start")
        #expect(launch.bundleRoot == nil)
        #expect(launch.configuration.origins.allowed == ["example.com"])
        #expect(launch.configuration.app.bundleId == "run.pwakit.example-com")
        #expect(throws: HostError.self) { try AppLaunch.resolve("https://") }
    }

    @Test func eachAppHasItsOwnDataDirectory() throws {
        let environment = ["HOME": "/home/u", "XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "relative"]
        let one = try WebsiteDataLocation(bundleID: "dev.pwakit.one", environment: environment)
        let two = try WebsiteDataLocation(bundleID: "dev.pwakit.two", environment: environment)
        #expect(one.data.path == "/data/pwakit/dev.pwakit.one")
        #expect(one.cache.path == "/home/u/.cache/pwakit/dev.pwakit.one")
        #expect(one.data != two.data && one.cache != two.cache)
        for bad in ["", ".", "..", "a/b", "a\0b", String(repeating: "x", count: 256)] {
            #expect(throws: HostError.self) { try WebsiteDataLocation(bundleID: bad, environment: environment) }
        }
        let base = URL(fileURLWithPath: "/tmp/base")
        #expect(try WebsiteDataLocation(bundleID: "a.b", base: base).data.path == "/tmp/base/a.b/data")
    }
}
