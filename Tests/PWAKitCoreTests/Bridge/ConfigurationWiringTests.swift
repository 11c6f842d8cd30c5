import Testing

@testable import PWAKitCore

/// The configuration decides what each page may call: feature flags build the registry,
/// the origin policy decides each page's grant.
@Suite struct ConfigurationWiringTests {
    struct ConfigReader: PWAModule {
        static let moduleName = "config"
        static let supportedActions = ["bundleId"]
        func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? {
            .string(context.configuration.app.bundleId + " " + context.caller.origin)
        }
    }

    struct BadFlagModule: PWAModule {
        static let moduleName = "bad"
        static let supportedActions = ["x"]
        static let featureFlag: String? = "noSuchFlag"
        func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? { nil }
    }

    @Test func featureFlagsDecideEnabledAndUnavailableModules() async throws {
        var features = FeatureFlags()
        features.share = false
        let registry = try ModuleRegistry(modules: [EchoModule(), GreeterModule()], features: features)
        #expect(registry.descriptors.map(\.enabled) == [true, false])
        let dispatcher = BridgeDispatcher(registry: registry, configuration: .testing)
        let page = await dispatcher.openPage(url: "https://app.example.com/home") { _ in }
        let reply = await dispatcher.handle(#"{"id":"1","module":"greeter","action":"ping"}"#, from: page)
        #expect(reply?.json.contains(#""code":"unavailable""#) == true)
        features.share = true
        let enabled = try ModuleRegistry(modules: [GreeterModule()], features: features)
        #expect(enabled.descriptors.map(\.enabled) == [true])
    }

    @Test func aModuleWithAnUnknownFlagIsRefused() {
        #expect(throws: RegistryError.self) { try ModuleRegistry(modules: [BadFlagModule()], features: FeatureFlags()) }
    }

    @Test(arguments: [
        ("https://app.example.com/page", "ok"),
        ("https://app.example.com:443/other/path", "ok"),
        ("https://deep.trusted.example/", "ok"),
        ("https://login.example.com/", "origin_not_allowed"),
        ("https://elsewhere.example/", "origin_not_allowed"),
        ("https://evil.example/", "origin_not_allowed"),
        ("http://app.example.com/", "origin_not_allowed"),
        ("https://app.example.com.evil.example/", "origin_not_allowed"),
        ("not a url", "origin_not_allowed"),
    ])
    func pagesAreGrantedByTheirOrigin(_ url: String, _ outcome: String) async throws {
        let registry = try ModuleRegistry(modules: [ConfigReader()], features: FeatureFlags())
        let dispatcher = BridgeDispatcher(registry: registry, configuration: .testing)
        let page = await dispatcher.openPage(url: url) { _ in }
        let reply = await dispatcher.handle(#"{"id":"1","module":"config","action":"bundleId"}"#, from: page)
        guard case .response(let response)? = reply else {
            Issue.record("no response")
            return
        }
        #expect((response.error?.code.rawValue ?? "ok") == outcome, "\(url): \(response.json)")
        if outcome == "ok", case .success(let data) = response.outcome {
            #expect(data?.stringValue?.hasPrefix("dev.pwakit.test https://") == true)
        }
    }

    @Test func grantsNarrowAnOriginToListedModulesAndActions() async throws {
        var configuration = PWAConfiguration.testing
        configuration.origins.grants = ["*.trusted.example": ["greeter.ping"], "app.example.com": ["greeter", "echo"]]
        let registry = try ModuleRegistry(modules: [EchoModule(), GreeterModule()], features: FeatureFlags())
        let dispatcher = BridgeDispatcher(registry: registry, configuration: configuration)
        let trusted = await dispatcher.openPage(url: "https://a.trusted.example/") { _ in }
        let main = await dispatcher.openPage(url: "https://app.example.com/") { _ in }
        func code(_ message: String, _ page: PageLoadID) async -> String {
            guard case .response(let response)? = await dispatcher.handle(message, from: page) else { return "none" }
            return response.error?.code.rawValue ?? "ok"
        }
        #expect(await code(#"{"id":"1","module":"greeter","action":"ping"}"#, trusted) == "ok")
        #expect(await code(#"{"id":"2","module":"greeter","action":"quiet"}"#, trusted) == "permission_denied")
        #expect(await code(#"{"id":"3","module":"echo","action":"echo"}"#, trusted) == "permission_denied")
        #expect(await code(#"{"id":"4","module":"greeter","action":"quiet"}"#, main) == "ok")
        #expect(await code(#"{"id":"5","module":"echo","action":"echo"}"#, main) == "ok")
    }
}
