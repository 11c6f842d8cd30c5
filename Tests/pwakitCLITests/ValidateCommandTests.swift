import Foundation
import Testing

@Suite("pwakit validate")
struct ValidateCommandTests {
    @Test func validExampleExitsZero() throws {
        let run = try PWAKitBinary.run(["validate", "Examples/hello"])
        #expect(run.status == 0)
        #expect(run.stdout == "Examples/hello/pwa-config.json: valid\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func validFileGivenDirectly() throws {
        let run = try PWAKitBinary.run(["validate", "Examples/hello/pwa-config.json"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Examples/hello/pwa-config.json: valid"))
    }

    @Test func defaultsToTheCurrentDirectory() throws {
        let run = try PWAKitBinary.run(
            ["validate"], in: PWAKitBinary.repositoryRoot.appendingPathComponent("Examples/hello"))
        #expect(run.status == 0)
        #expect(run.stdout == "pwa-config.json: valid\n")
    }

    @Test func invalidExampleListsEveryProblemWithItsPath() throws {
        let run = try PWAKitBinary.run(["validate", "Examples/invalid"])
        #expect(run.status == 1)
        let expectedLines = [
            "Examples/invalid/pwa-config.json: invalid, 11 errors, 1 warning",
            "  error    version: unsupported version 2: this PWAKit understands version 1",
            "  error    app.name: must not be empty",
            "  error    origins.allowed[1]: \"https://example.com\": patterns name a host, not a URL: remove \"https://\"",
            "  error    origins.allowed[2]: \"*.\": empty label",
            "  error    origins.external[0]: \"example.com\" is also in origins.allowed[0]; a pattern cannot be both allowed and external",
            "  error    app.startUrl: \"http://example.com/\": http is only allowed for localhost, 127.0.0.1 and [::1]; use https",
            "  error    features.haptics: expected a boolean, found string \"yes\"",
            "  error    appearance.displayMode: \"minimized\" is not one of standalone, fullscreen",
            "  error    appearance.themeColor: \"#abc\" is not a colour of the form #RRGGBB; write \"#AABBCC\"",
            "  error    notifications.provider: \"fcm\" is not one of apns",
            "  warning  features.teleport: unknown key \"teleport\" in features is ignored",
        ]
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for line in expectedLines {
            #expect(lines.contains(line), "missing: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("  error    app.bundleId: \"not a bundle id\"") })
        #expect(lines.count == 13)
    }

    @Test func jsonOutputIsTheReport() throws {
        let run = try PWAKitBinary.run(["validate", "--json", "Examples/invalid"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["isValid"] as? Bool == false)
        let issues = try #require(object["issues"] as? [[String: Any]])
        #expect(issues.count == 12)
        let allowed2 = try #require(issues.first { $0["path"] as? String == "origins.allowed[2]" })
        #expect(allowed2["severity"] as? String == "error")
        #expect(allowed2["code"] as? String == "invalid_pattern")
        #expect(allowed2["message"] as? String == "\"*.\": empty label")
        #expect(issues.contains { $0["severity"] as? String == "warning" && $0["code"] as? String == "unknown_key" })
    }

    @Test func jsonOutputForAValidFile() throws {
        let run = try PWAKitBinary.run(["validate", "--json", "Examples/hello"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["isValid"] as? Bool == true)
        #expect((object["issues"] as? [Any])?.isEmpty == true)
    }

    @Test func warningsAloneStillExitZero() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("pwa-config.json", Self.minimal(extra: #", "futureKey": 1"#))
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("valid, 1 warning"))
        #expect(run.stdout.contains("warning  futureKey: unknown key \"futureKey\" at the top level is ignored"))
    }

    @Test func missingFileIsUnreadable() throws {
        let run = try PWAKitBinary.run(["validate", "/nonexistent/pwa-config.json"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "error: no such file or directory: /nonexistent/pwa-config.json\n")
    }

    @Test func directoryWithoutConfigIsUnreadable() throws {
        let scratch = try TemporaryDirectory()
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no pwa-config.json in directory"))
    }

    @Test func unreadableWithJSONPrintsAnErrorObject() throws {
        let run = try PWAKitBinary.run(["validate", "--json", "/nonexistent"])
        #expect(run.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "config.unreadable")
    }

    @Test func malformedJSONIsInvalidWithLineAndColumn() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("pwa-config.json", "{\n  \"version\": 1,\n  \"app\": {,\n}")
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "error    not valid JSON: line 3, column 11: unexpected ','; expected a key in double quotes"))
    }

    @Test func oversizedFileIsInvalid() throws {
        let scratch = try TemporaryDirectory()
        let padding = String(repeating: " ", count: 1 << 20)
        try scratch.write("pwa-config.json", Self.minimal(extra: "") + padding)
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("the document is larger than 1048576 bytes (1 MiB)"))
    }

    @Test func invalidUTF8IsInvalid() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("pwa-config.json", bytes: Data([0x7B, 0x0A, 0x22, 0xFF, 0x22, 0x7D]))
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("invalid UTF-8 byte 0xFF"))
    }

    @Test func deepNestingIsInvalidNotACrash() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("pwa-config.json", String(repeating: "[", count: 100_000))
        let run = try PWAKitBinary.run(["validate", scratch.url.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("nesting deeper than 64 levels"))
    }

    static func minimal(extra: String) -> String {
        """
        {"version": 1, "app": {"name": "A", "bundleId": "com.example.a", "startUrl": "https://example.com/"},
         "origins": {"allowed": ["example.com"]}\(extra)}
        """
    }
}
