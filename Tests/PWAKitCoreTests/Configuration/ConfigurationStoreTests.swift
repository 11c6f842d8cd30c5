import Foundation
import Testing

@testable import PWAKitCore

@Suite("Configuration store")
struct ConfigurationStoreTests {
    static let first = PWAConfiguration(
        app: AppSection(name: "First", bundleId: "com.example.a", startUrl: "https://example.com/"),
        origins: OriginsSection(allowed: ["example.com"]))

    @Test func acceptsValidReplacements() async throws {
        let store = ConfigurationStore(configuration: Self.first)
        var next = Self.first
        next.app.name = "Second"
        try await store.replace(with: next)
        #expect(await store.configuration.app.name == "Second")
        #expect(await store.generation == 1)
        try await store.replace(with: next)
        #expect(await store.generation == 1)
    }

    @Test func rejectsInvalidReplacementsAndKeepsTheCurrentOne() async throws {
        let store = ConfigurationStore(configuration: Self.first)
        var broken = Self.first
        broken.origins.allowed = []
        await #expect {
            try await store.replace(with: broken)
        } throws: { error in
            (error as? ConfigurationError)?.report?.errors.map(\.path).contains("origins.allowed") == true
        }
        await #expect(throws: ConfigurationError.self) {
            try await store.replace(with: Data("{".utf8))
        }
        #expect(await store.configuration == Self.first)
        #expect(await store.generation == 0)
    }

    @Test func reloadsItsSourceFile() async throws {
        let directory = try TemporaryFiles()
        let file = try directory.write("pwa-config.json", Self.first.encodedJSON())
        let store = try ConfigurationStore(contentsOf: directory.url)
        #expect(await store.source == file)
        var next = Self.first
        next.features.haptics = false
        try directory.write("pwa-config.json", next.encodedJSON())
        try await store.reload()
        #expect(await store.configuration.features.haptics == false)

        try directory.write("pwa-config.json", Data("{\"version\": 9}".utf8))
        await #expect(throws: ConfigurationError.self) { try await store.reload() }
        #expect(await store.configuration == next)
    }

    @Test func reloadWithoutSourceFails() async {
        let store = ConfigurationStore(configuration: Self.first)
        await #expect {
            try await store.reload()
        } throws: { error in
            (error as? ConfigurationError)?.code == .unreadable
        }
    }

    @Test func changesYieldTheCurrentThenEachAcceptedConfiguration() async throws {
        let store = ConfigurationStore(configuration: Self.first)
        var iterator = await store.changes().makeAsyncIterator()
        #expect(await iterator.next() == Self.first)
        var next = Self.first
        next.app.name = "Next"
        try await store.replace(with: next)
        #expect(await iterator.next() == next)
    }
}
