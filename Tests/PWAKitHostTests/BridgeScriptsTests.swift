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
