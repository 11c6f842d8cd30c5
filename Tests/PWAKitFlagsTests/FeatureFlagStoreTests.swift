import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitFlags
import Testing

@Suite("Feature flags on the device")
struct FeatureFlagStoreTests {
    static func cacheFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("flags-\(UUID().uuidString).json")
    }

    @Test("an override wins over the server's value, which wins over the default")
    func precedence() throws {
        let store = FeatureFlagStore(defaults: ["new_onboarding": .bool(false), "max_items": .number(10)])
        #expect(store.resolved("new_onboarding")?.source == .default)
        #expect(store.bool("new_onboarding") == false)
        try store.apply(remote: ["new_onboarding": .bool(true), "greeting": .string("hi")])
        #expect(store.resolved("new_onboarding")?.source == .remote)
        #expect(store.bool("new_onboarding"))
        #expect(store.string("greeting", default: "") == "hi")
        store.override("new_onboarding", with: .bool(false))
        #expect(store.resolved("new_onboarding")?.source == .override)
        #expect(store.bool("new_onboarding") == false)
        store.override("new_onboarding", with: nil)
        #expect(store.bool("new_onboarding"))
        #expect(store.number("max_items", default: 0) == 10)
        #expect(store.number("greeting", default: 3) == 3)
        #expect(store.value("unknown") == nil)
        #expect(Set(store.all.keys) == ["new_onboarding", "max_items", "greeting"])
    }

    @Test("the server's answer is cached: the next launch starts with it, offline")
    func offlineCache() throws {
        let file = Self.cacheFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let first = FeatureFlagStore(defaults: ["beta": .bool(false)], cacheFile: file)
        try first.apply(remote: ["beta": .bool(true)], fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let relaunched = FeatureFlagStore(defaults: ["beta": .bool(false)], cacheFile: file)
        #expect(relaunched.bool("beta"))
        #expect(relaunched.fetchedAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("a cache that is torn, hostile or of another shape is ignored; the defaults hold")
    func hostileCache() throws {
        let file = Self.cacheFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let hostile = [
            "{\"fetchedAt\": 1, \"flags\": {\"beta\": tr", "[]", "{\"flags\": {\"beta\": true}}",
            "{\"fetchedAt\": 1, \"flags\": {\"beta\": {\"nested\": true}}}",
            String(repeating: "{", count: 100_000),
        ]
        for text in hostile {
            try Data(text.utf8).write(to: file)
            let store = FeatureFlagStore(defaults: ["beta": .bool(false)], cacheFile: file)
            #expect(store.resolved("beta")?.source == .default, "\(text.prefix(40))")
        }
        try Data(#"{"fetchedAt": 1, "flags": {"Bad Key": true, "ok": "x"}}"#.utf8).write(to: file)
        let filtered = FeatureFlagStore(defaults: [:], cacheFile: file)
        #expect(filtered.value("Bad Key") == nil)
        #expect(filtered.value("ok") == .string("x"))
    }

    @Test("values that break the flag rules are not applied")
    func invalidRemoteValues() throws {
        let store = FeatureFlagStore(defaults: ["n": .number(1)])
        try store.apply(remote: ["n": .number(.nan), "Bad": .bool(true), "long": .string(String(repeating: "x", count: 2000))])
        #expect(store.number("n", default: 0) == 1)
        #expect(store.value("Bad") == nil && store.value("long") == nil)
    }

    @Test("listeners hear answers and overrides")
    func changes() async throws {
        let store = FeatureFlagStore(defaults: [:])
        var iterator = store.changes().makeAsyncIterator()
        store.override("a", with: .bool(true))
        #expect(await iterator.next() != nil)
        try store.apply(remote: ["b": .bool(true)])
        #expect(await iterator.next() != nil)
    }

    @Test("the flags module answers pages read-only, naming the field of a bad key")
    func module() async throws {
        let store = FeatureFlagStore(defaults: ["beta": .bool(false), "limit": .number(3)])
        try store.apply(remote: ["beta": .bool(true)])
        let registry = try ModuleRegistry(modules: [FlagsModule(store: store)], features: FeatureFlags())
        let configuration = PWAConfiguration(
            app: AppSection(name: "Flags", bundleId: "dev.pwakit.flags", startUrl: "https://app.example.com/"),
            origins: OriginsSection(allowed: ["app.example.com"]))
        let dispatcher = BridgeDispatcher(registry: registry, configuration: configuration, version: "1", build: "1")
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        func call(_ action: String, _ payload: String = "") async throws -> JSONValue {
            let message =
                #"{"id":"1","module":"flags","action":"\#(action)""# + (payload.isEmpty ? "" : ",\"payload\":\(payload)") + "}"
            let reply = try #require(await dispatcher.handle(message, from: page))
            return try JSONParser.parse(Data(reply.json.utf8))
        }
        let beta = try await call("get", #"{"key":"beta"}"#)
        #expect(beta["data"]?["value"] == .bool(true))
        #expect(beta["data"]?["source"] == .string("remote"))
        let unknown = try await call("get", #"{"key":"nothing"}"#)
        #expect(unknown["data"]?["value"] == .null)
        #expect(unknown["data"]?["source"] == .string("none"))
        let all = try await call("all")
        #expect(all["data"]?["flags"]?["limit"] == .number(3))
        for hostile in [#"{"key":"Bad Key"}"#, #"{"key":5}"#, #"{}"#, #"{"key":"\#(String(repeating: "a", count: 100))"}"#] {
            let refused = try await call("get", hostile)
            #expect(refused["code"] == .string("invalid_payload"), "\(hostile)")
            #expect(refused["details"]?["path"] == .string("payload.key"), "\(hostile)")
        }
        #expect(try await call("set", #"{"key":"beta"}"#)["code"] == .string("unknown_action"))
    }
}
