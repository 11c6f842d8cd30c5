import Foundation
import Testing

@Suite("pwakit sync")
struct SyncCommandTests {
    @Test("the committed Apple files of the hello example are what its configuration makes (sync --check)")
    func examplesAreCurrent() throws {
        let run = try PWAKitBinary.run(["sync", "Examples/hello", "--check"])
        #expect(run.status == 0, "run `pwakit sync Examples/hello` and commit the result:\n\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Examples/hello/apple/Info.plist: up to date"))
    }

    @Test("a first run creates the files, a second changes nothing, --check finds an edit and writes nothing")
    func lifecycle() throws {
        let scratch = try TemporaryDirectory()
        let config = try String(
            contentsOf: PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello/pwa-config.json"), encoding: .utf8)
        try scratch.write("pwa-config.json", config)
        let first = try PWAKitBinary.run(["sync"], in: scratch.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("+++ b/Info.plist"))
        #expect(first.stdout.contains("apple/App.entitlements: created"))
        let second = try PWAKitBinary.run(["sync"], in: scratch.url)
        #expect(second.status == 0)
        #expect(!second.stdout.contains("created") && !second.stdout.contains("updated"), "\(second.stdout)")

        try scratch.write("pwa-config.json", config.replacingOccurrences(of: "\"Hello PWAKit\"", with: "\"Renamed\""))
        let before = try scratch.read("apple/Info.plist")
        let check = try PWAKitBinary.run(["sync", "--check"], in: scratch.url)
        #expect(check.status == 5)
        #expect(check.stdout.contains("+\t<string>Renamed</string>"))
        #expect(check.stdout.contains("apple/Info.plist: stale"))
        #expect(check.stderr.contains("differ from pwa-config.json"))
        #expect(try scratch.read("apple/Info.plist") == before)
        let fixed = try PWAKitBinary.run(["sync", "--quiet"], in: scratch.url)
        #expect(fixed.status == 0)
        #expect(!fixed.stdout.contains("+++"))
        #expect(try scratch.read("apple/Info.plist").contains("<string>Renamed</string>"))
    }

    @Test("what cannot be rendered or read fails with the field at fault, and nothing is written")
    func failures() throws {
        let scratch = try TemporaryDirectory()
        let config = try String(
            contentsOf: PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello/pwa-config.json"), encoding: .utf8)
        try scratch.write(
            "pwa-config.json",
            config.replacingOccurrences(of: #""cameraPermission": false"#, with: #""cameraPermission": true"#))
        let missing = try PWAKitBinary.run(["sync"], in: scratch.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("identifiers.usageDescriptions.NSCameraUsageDescription"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("apple").path))

        try scratch.write("pwa-config.json", config)
        try scratch.write("out/App.entitlements", "<plist><dict><key>a</key></dict></plist>")
        let hostile = try PWAKitBinary.run(["sync", "--output", "out"], in: scratch.url)
        #expect(hostile.status == 1)
        #expect(hostile.stderr.contains("App.entitlements") && hostile.stderr.contains("unreadable_property_list"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/Info.plist").path))

        let unreadable = try PWAKitBinary.run(["sync", "nowhere"], in: scratch.url)
        #expect(unreadable.status == 2)
    }

    @Test("install-desktop --config registers the configuration's scheme under the app's name")
    func installDesktopFromConfiguration() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("hello.desktop").path
        let run = try PWAKitBinary.run(["install-desktop", "--config", "Examples/hello", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        let values = InstallDesktopCommandTests.entries(try scratch.read("hello.desktop")).values
        #expect(values["MimeType"] == "x-scheme-handler/pwakit-hello;")
        #expect(values["Name"] == "Hello PWAKit (pwakit-hello: links)")
        let both = try PWAKitBinary.run(["install-desktop", "--config", "Examples/hello", "--scheme", "x", "--output", output])
        #expect(both.status == 64)
        let neither = try PWAKitBinary.run(["install-desktop", "--output", output])
        #expect(neither.status == 64)
    }
}

@Suite("The app group folder on Linux")
struct AppGroupFolderTests {
    @Test("pwakit events --config records into events/ of the configuration's app group folder")
    func eventsUseTheAppGroup() throws {
        let home = try TemporaryDirectory()
        let environment = ["XDG_DATA_HOME": home.url.path]
        let recorded = try PWAKitBinary.run(
            ["events", "record", "--config", "Examples/hello", "--name", "opened"], environment: environment)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let folder = home.url.appendingPathComponent("pwakit/app-groups/group.dev.pwakit.hello/events")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        let status = try PWAKitBinary.run(["events", "status", "--config", "Examples/hello"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("1"), "\(status.stdout)")
        let both = try PWAKitBinary.run(["events", "status", "--config", "Examples/hello", "--buffer", "/tmp/x"])
        #expect(both.status == 64)
        let missing = try PWAKitBinary.run(["events", "status", "--config", "/nonexistent"], environment: environment)
        #expect(missing.status == 2, "\(missing.stderr)")
    }
}
