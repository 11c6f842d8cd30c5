import Foundation
import PWAKitTesting
import Testing

@Suite("pwakit install-desktop")
struct InstallDesktopCommandTests {
    /// The entry's `key=value` lines under its one group.
    static func entries(_ text: String) -> (group: String?, values: [String: String]) {
        var group: String?
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                group = String(line)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return (group, values)
    }

    @Test func writesASchemeHandlerEntryThatRunsTheLauncher() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("apps/pwakit-notes.desktop").path
        let run = try PWAKitBinary.run(["install-desktop", "--scheme", "Notes+Dev", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(output)"))
        #expect(run.stdout.contains("xdg-mime default pwakit-notes.desktop x-scheme-handler/notes+dev"))
        let (group, values) = Self.entries(try scratch.read("apps/pwakit-notes.desktop"))
        #expect(group == "[Desktop Entry]")
        #expect(values["Type"] == "Application")
        #expect(values["MimeType"] == "x-scheme-handler/notes+dev;")
        #expect(values["Exec"] == "\(try PWAKitBinary.locate().resolvingSymlinksInPath().path) launcher %u")
        #expect(values["NoDisplay"] == "true")
        #expect(values["Name"]?.isEmpty == false)
    }

    @Test("--share writes a \"Share to\" entry whose Exec, run as a desktop would, queues the link in the app group")
    func shareEntryQueuesInTheAppGroup() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("apps/hello.desktop").path
        let run = try PWAKitBinary.run(["install-desktop", "--config", "Examples/hello", "--share", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("hello-share.desktop"), "\(run.stdout)")
        let values = Self.entries(try scratch.read("apps/hello-share.desktop")).values
        #expect(values["Name"] == "Share to Hello PWAKit")
        #expect(values["MimeType"] == "x-scheme-handler/http;x-scheme-handler/https;")
        #expect(values["NoDisplay"] == "true")
        let config = PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello/pwa-config.json").standardizedFileURL.path
        let exec = try #require(values["Exec"])
        #expect(exec == "\(try PWAKitBinary.locate().resolvingSymlinksInPath().path) share --config \(config) %u")

        // As a desktop launches it: the words of Exec, %u replaced by the link.
        let words = exec.split(separator: " ").map(String.init).map {
            $0 == "%u" ? "https://example.com/shared?utm_source=x" : $0
        }
        let data = try TemporaryDirectory()
        let launched = try BuiltBinary(url: URL(fileURLWithPath: words[0])).run(
            Array(words.dropFirst()), environment: ["XDG_DATA_HOME": data.url.path])
        #expect(launched.status == 0, "\(launched.stderr)")
        let listed = try PWAKitBinary.run(
            ["share", "--config", "Examples/hello", "--list"], environment: ["XDG_DATA_HOME": data.url.path])
        #expect(listed.stdout.contains("https://example.com/shared?utm_source=x"), "\(listed.stdout) \(listed.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: data.url.appendingPathComponent("pwakit/app-groups/group.dev.pwakit.hello/shares").path))

        let without = try PWAKitBinary.run(["install-desktop", "--scheme", "x", "--share", "--output", output])
        #expect(without.status == 64)
        #expect(without.stderr.contains("--share needs --config"), "\(without.stderr)")
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let scratch = try TemporaryDirectory()
        let existing = try scratch.write("x.desktop", "kept\n")
        let refused = try PWAKitBinary.run(["install-desktop", "--scheme", "myapp", "--output", existing.path])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("pass --force"))
        #expect(try scratch.read("x.desktop") == "kept\n")
        let forced = try PWAKitBinary.run(["install-desktop", "--scheme", "myapp", "--output", existing.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(Self.entries(try scratch.read("x.desktop")).values["MimeType"] == "x-scheme-handler/myapp;")
    }

    @Test func defaultsToTheUsersApplicationsDirectory() throws {
        let home = try TemporaryDirectory()
        let run = try PWAKitBinary.run(
            ["install-desktop", "--scheme", "myapp"], environment: ["HOME": home.url.path, "XDG_DATA_HOME": ""])
        #expect(run.status == 0, "\(run.stderr)")
        let values = Self.entries(try home.read(".local/share/applications/pwakit-myapp.desktop")).values
        #expect(values["MimeType"] == "x-scheme-handler/myapp;")
        let data = try TemporaryDirectory()
        let xdg = try PWAKitBinary.run(
            ["install-desktop", "--scheme", "myapp"], environment: ["HOME": home.url.path, "XDG_DATA_HOME": data.url.path])
        #expect(xdg.status == 0, "\(xdg.stderr)")
        #expect(FileManager.default.fileExists(atPath: data.url.appendingPathComponent("applications/pwakit-myapp.desktop").path))
    }

    @Test func quotesAnExecutablePathWithReservedCharacters() throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("q.desktop").path
        let run = try PWAKitBinary.run(
            ["install-desktop", "--scheme", "myapp", "--output", output, "--executable", "/opt/my apps/100%/pwa$kit"])
        #expect(run.status == 0, "\(run.stderr)")
        let values = Self.entries(try scratch.read("q.desktop")).values
        #expect(values["Exec"] == #""/opt/my apps/100%%/pwa\\$kit" launcher %u"#)
    }

    @Test(arguments: ["", "1app", "my app", "my_app", "https", "app:"])
    func refusesASchemeThatIsNotRFC3986(scheme: String) throws {
        let scratch = try TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("x.desktop").path
        let run = try PWAKitBinary.run(["install-desktop", "--scheme", scheme, "--output", output])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--scheme"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
