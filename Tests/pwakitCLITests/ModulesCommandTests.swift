import Foundation
import Testing

@Suite struct ModulesCommandTests {
    @Test func listsTheModulesOfTheExampleApp() throws {
        let run = try PWAKitBinary.run(["modules", "Examples/hello"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Examples/hello/pwa-config.json"))
        #expect(run.stdout.contains("platform") && run.stdout.contains("getInfo"))
        #expect(run.stdout.contains("schema hash "))
    }

    @Test func printsJSONForMachines() throws {
        let run = try PWAKitBinary.run(["modules", "--json", "Examples/hello/pwa-config.json"])
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let modules = try #require(object?["modules"] as? [[String: Any]])
        let platform = try #require(modules.first { $0["name"] as? String == "platform" })
        #expect(platform["enabled"] as? Bool == true)
        #expect(platform["actions"] as? [String] == ["getInfo"])
        let lifecycle = try #require(modules.first { $0["name"] as? String == "lifecycle" })
        #expect(lifecycle["actions"] as? [String] == ["ready"])
        #expect((object?["schemaHash"] as? String)?.count == 16)
        let schemas = try #require(object?["schemas"] as? [[String: Any]])
        let haptics = try #require(schemas.first { $0["name"] as? String == "haptics" })
        let impact = try #require((haptics["actions"] as? [[String: Any]])?.first { $0["name"] as? String == "impact" })
        let payload = try #require(impact["payload"] as? [String: Any])
        #expect(payload["name"] as? String == "ImpactFeedback")
        #expect(haptics["featureFlag"] as? String == "haptics")
    }

    @Test func theCommittedSDKDeclarationsAndReferenceAreGeneratedFromTheCurrentSchemas() throws {
        for (flag, file) in [("--typescript", "SDK/js/pwakit-modules.d.ts"), ("--markdown", "docs/modules.md")] {
            let run = try PWAKitBinary.run(["modules", flag])
            #expect(run.status == 0, "\(run.stderr)")
            let committed = try String(
                contentsOf: PWAKitBinary.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(run.stdout == committed, "\(file) is stale: run scripts/generate-modules")
        }
        let both = try PWAKitBinary.run(["modules", "--json", "--markdown"])
        #expect(both.status != 0)
    }

    @Test func refusesAnInvalidConfigurationWithItsReport() throws {
        let run = try PWAKitBinary.run(["modules", "Examples/invalid"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error:"))
        let missing = try PWAKitBinary.run(["modules", "/nonexistent/dir"])
        #expect(missing.status == 2)
    }

    @Test func theOutputFormatsAreExclusiveInTheUsageAndWhenGiven() throws {
        let help = try PWAKitBinary.run(["modules", "--help"])
        #expect(help.stdout.contains("[--json | --typescript | --markdown]"), "\(help.stdout)")
        let both = try PWAKitBinary.run(["modules", "--json", "--markdown"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--json") && both.stderr.contains("--markdown"), "\(both.stderr)")
    }
}
