import Crypto
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitMiniApps
import PWAKitModules
import Testing

@Suite("session module: single sign-on through the bridge")
struct SessionModuleTests {
    func context(origin: String) throws -> ModuleContext {
        let configuration = try ConfigurationLoader.load(
            from: Data(
                #"{"version":1,"app":{"name":"Quiz","bundleId":"com.example.quiz","startUrl":"app://quiz/"},"origins":{"allowed":["quiz"]}}"#
                    .utf8))
        return ModuleContext(
            callID: "1", caller: BridgeCaller(origin: origin, pageLoad: PageLoadID(rawValue: 1), grant: .all),
            app: AppIdentity(name: "Quiz", bundleID: "com.example.quiz"), configuration: configuration, emit: { _ in })
    }

    @Test("a launch code from the mini-app's origin is exchanged once by its backend; a replay is refused")
    func launchCodeExchange() async throws {
        try await LivePlatform.run { platform in
            let key = SigningKey.generate()
            try await platform.createApp("quiz", key: key)
            let release = try await platform.publish("quiz", version: "1.0.0", files: ["index.html": bytes("hi")], key: key)
            let credential = try await platform.client.createCredential(appId: "quiz", accessToken: platform.admin)
            let (account, _) = try await platform.signedInAccount(email: "sso@example.com")
            let module = SessionModule(appId: "quiz", bundleHash: release.bundleHash, account: account)
            let answer = try await module.handle(
                action: "getLaunchCode", payload: nil, context: try context(origin: "app://quiz"))
            let code = try #require(answer?["code"]?.stringValue)
            #expect(answer?["launchToken"]?.stringValue?.split(separator: ".").count == 3)
            let exchanged = try await platform.client.exchangeLaunchCode(
                code, credentialId: credential.credentialId, secret: credential.secret)
            #expect(exchanged.user.email == "sso@example.com")
            #expect(exchanged.bundleHash == release.bundleHash)
            let replay = await #expect(throws: APIClientError.self) {
                try await platform.client.exchangeLaunchCode(
                    code, credentialId: credential.credentialId, secret: credential.secret)
            }
            #expect(replay?.code == .init("invalid_launch_code"))
            let user = try await module.handle(action: "getUser", payload: nil, context: try context(origin: "app://quiz"))
            #expect(user?["displayName"]?.stringValue == "sso")
            #expect(user?["emailVerified"] == .bool(false))
        }
    }

    @Test(
        "any other origin is refused, whatever its grant", arguments: ["app://chess", "https://quiz", "app://quiz.evil", "null"])
    func otherOrigins(_ origin: String) async throws {
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        let module = SessionModule(
            appId: "quiz", bundleHash: String(repeating: "a", count: 64),
            account: AccountSession(client: offline, vault: InMemorySecureStore()))
        for action in ["getLaunchCode", "getUser"] {
            let error = await #expect(throws: BridgeError.self) {
                _ = try await module.handle(action: action, payload: nil, context: try context(origin: origin))
            }
            #expect(error?.code == .permissionDenied)
        }
    }

    @Test("signed out, the page is told so with the module's code")
    func signedOut() async throws {
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        let module = SessionModule(
            appId: "quiz", bundleHash: String(repeating: "a", count: 64),
            account: AccountSession(client: offline, vault: InMemorySecureStore()))
        let error = await #expect(throws: BridgeError.self) {
            _ = try await module.handle(action: "getLaunchCode", payload: nil, context: try context(origin: "app://quiz"))
        }
        #expect(error?.code == .module("session", "not_signed_in"))
    }
}
