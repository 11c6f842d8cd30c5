import Foundation
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
