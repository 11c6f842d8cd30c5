import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitModules
import Testing

@testable import PWAKitMiniApps

@Suite("launcher module: only what the page sent is answered with a payload path")
@MainActor
struct LauncherModuleErrorTests {
    /// A module over a launcher that never reaches a server.
    func module() throws -> LauncherModule {
        let directory = temporaryDirectory("launcher-errors")
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        return LauncherModule(
            controller: LauncherController(
                account: AccountSession(client: offline, vault: InMemorySecureStore()),
                store: try BundleStore(root: directory.appendingPathComponent("store")), trust: PublisherTrust(),
                catalogDirectory: directory.appendingPathComponent("catalog")))
    }

    /// What `run` answers when the controller throws `fault`.
    func bridgeAnswer(_ module: LauncherModule, _ fault: MiniAppError, payloadFields: Set<String>) async -> BridgeError? {
        do {
            try await module.run(payloadFields: payloadFields) { _ in throw fault }
            return nil
        } catch {
            return error as? BridgeError
        }
    }

    @Test("store, signature and download faults are launcher.failed and claim no payload path")
    func faultsNameNoPayloadPath() async throws {
        let module = try module()
        let faults: [MiniAppError] = [
            MiniAppError(.badSignature, "the signature does not verify", field: "keyId"),
            MiniAppError(.hashMismatch, "the bytes do not hash to their address", field: "sha256"),
            MiniAppError(.invalidManifest, "the manifest is another app's", field: "manifest.appId"),
            MiniAppError(.storeCorrupt, "quiz's state file cannot be read", field: "apps.quiz.state"),
            // A store fault naming a field the payload also has is still not the page's mistake.
            MiniAppError(.notInstalled, "quiz is not installed", field: "appId"),
        ]
        for fault in faults {
            let answer = await bridgeAnswer(module, fault, payloadFields: ["appId", "channel"])
            #expect(answer?.code.rawValue == "launcher.failed", "\(fault)")
            #expect(answer?.details?["path"] == nil, "\(fault): \(String(describing: answer))")
            #expect(answer?.message == fault.message)
        }
    }

    @Test("an unknown app or a value the app does not offer names the payload field it came from")
    func pageValuesNameTheirPath() async throws {
        let module = try module()
        let unknown = await bridgeAnswer(
            module, MiniAppError(.unknownApp, "the catalog has no app nope", field: "appId"), payloadFields: ["appId"])
        #expect(unknown?.code.rawValue == "launcher.unknown_app")
        #expect(unknown?.details?["path"]?.stringValue == "payload.appId")
        let channel = await bridgeAnswer(
            module, MiniAppError(.invalidArgument, "quiz offers stable, not nightly", field: "channel"),
            payloadFields: ["appId", "channel"])
        #expect(channel?.code.rawValue == "launcher.invalid_argument")
        #expect(channel?.details?["path"]?.stringValue == "payload.channel")
        // A field the action's payload does not have is not claimed as one.
        let other = await bridgeAnswer(
            module, MiniAppError(.invalidArgument, "biometrics are not available", field: "biometrics"),
            payloadFields: ["appId"])
        #expect(other?.code.rawValue == "launcher.invalid_argument")
        #expect(other?.details?["path"] == nil)
    }
}
