import Foundation
import PWAKitCore
import Testing

@testable import PWAKitHost

@Suite struct BridgeScriptsTests {
    @Test func theEmbeddedSDKIsTheSDKSource() throws {
        let sdk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SDK/js/pwakit.js")
        let source = try String(contentsOf: sdk, encoding: .utf8)
        #expect(
            EmbeddedSDK.source == source,
            "Sources/PWAKitHost/Bridge/EmbeddedSDK.swift is stale: run scripts/embed-sdk")
    }

    @Test func theEmbeddedHostScriptsAreTheirSources() throws {
        let host = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SDK/js/host")
        let relay = try String(contentsOf: host.appendingPathComponent("relay.js"), encoding: .utf8)
        let shim = try String(contentsOf: host.appendingPathComponent("page-shim.js"), encoding: .utf8)
        #expect(EmbeddedHostScripts.relay == relay, "EmbeddedHostScripts.swift is stale: run scripts/embed-sdk")
        #expect(EmbeddedHostScripts.pageShim == shim, "EmbeddedHostScripts.swift is stale: run scripts/embed-sdk")
        // Every name is filled, with and without batching.
        for scripts in [BridgeScripts(origin: "app://a"), BridgeScripts(origin: "app://a", batching: true)] {
            #expect(!scripts.relay.contains("__PWAKIT_"))
            #expect(!scripts.pageShim.contains("__PWAKIT_"))
        }
    }

    @Test func fillingIsOnePassAndLeavesUnknownNamesAlone() {
        #expect(BridgeScripts.fill("a __PWAKIT_X__ b", ["X": "__PWAKIT_Y__"]) == "a __PWAKIT_Y__ b")
        #expect(BridgeScripts.fill("__PWAKIT_Z__ __PWAKIT_X__", ["X": "1"]) == "__PWAKIT_Z__ 1")
        #expect(BridgeScripts.fill("__PWAKIT_", ["X": "1"]) == "__PWAKIT_")
    }

    @Test func scriptsAreBoundToOneOriginAndTheTopFrame() {
        let scripts = BridgeScripts(origin: "app://hello", limits: BridgeLimits(maxMessageBytes: 4096))
        let guardLine = #"if (window.top !== window || location.protocol + '//' + location.host !== "app://hello") return;"#
        #expect(scripts.relay.contains(guardLine))
        #expect(scripts.pageShim.contains(guardLine))
        #expect(scripts.relay.contains("var MAX = 4096;"))
        let pages = scripts.pageScripts(handshake: BridgeHandshake(registry: ModuleRegistry()))
        #expect(pages.count == 3)
        #expect(pages.allSatisfy { $0.contains(guardLine) })
        #expect(pages[2].contains(EmbeddedSDK.source))
    }

    @Test func anOriginCannotBreakOutOfItsStringLiteral() {
        let scripts = BridgeScripts(origin: "https://a.example\"); alert(1); (\"")
        #expect(scripts.relay.contains(#""https://a.example\"); alert(1); (\"""#))
    }
}
