import Foundation
import PWAKitCore
import PWAKitLinuxHost
import Testing

/// The secret store used when no Secret Service runs: secrets sealed per app with AES-GCM.
@Suite struct EncryptedFileStoreTests {
    /// A store over a fresh directory: `<root>/key` and `<root>/<app>/`.
    struct Fixture {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-sealed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func store(key: String = "key") -> EncryptedFileStore {
            let root = self.root
            return EncryptedFileStore(keyFile: root.appendingPathComponent(key)) { app in
                root.appendingPathComponent(app)
            }
        }

        func sealed(_ app: String) -> URL {
            root.appendingPathComponent(app).appendingPathComponent(EncryptedFileStore.fileName)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func code(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as BridgeError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test func secretsSurviveANewStoreAndAreNotInTheFileInTheClear() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await fixture.store().set("s3cret-value ✓", for: "token", app: "dev.pwakit.a")
        let reopened = fixture.store()
        #expect(try await reopened.value(for: "token", app: "dev.pwakit.a") == "s3cret-value ✓")
        #expect(try await reopened.value(for: "missing", app: "dev.pwakit.a") == nil)
        let bytes = try Data(contentsOf: fixture.sealed("dev.pwakit.a"))
        #expect(bytes.range(of: Data("s3cret".utf8)) == nil)
        #expect(bytes.range(of: Data("token".utf8)) == nil, "key names are sealed too")
        #expect(try await reopened.delete("token", app: "dev.pwakit.a"))
        #expect(try await !reopened.delete("token", app: "dev.pwakit.a"))
        #expect(try await fixture.store().value(for: "token", app: "dev.pwakit.a") == nil)
    }

    @Test func theKeyAndTheDataAreOwnerOnly() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await fixture.store().set("v", for: "k", app: "app")
        for file in [fixture.root.appendingPathComponent("key"), fixture.sealed("app")] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file.path)")
        }
        #expect(try Data(contentsOf: fixture.root.appendingPathComponent("key")).count == 32)
    }

    @Test func aChangedByteIsDetected() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await fixture.store().set("value", for: "k", app: "app")
        var bytes = try Data(contentsOf: fixture.sealed("app"))
        bytes[bytes.count - 20] ^= 0x01
        try bytes.write(to: fixture.sealed("app"))
        #expect(await Self.code { _ = try await fixture.store().value(for: "k", app: "app") } == "secureStorage.failed")
    }

    @Test func anotherKeyCannotOpenTheFile() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await fixture.store(key: "first").set("value", for: "k", app: "app")
        let other = fixture.store(key: "second")
        try await other.set("x", for: "k", app: "elsewhere")  // creates the second key
        #expect(await Self.code { _ = try await other.value(for: "k", app: "app") } == "secureStorage.failed")
        // Without its key the file cannot be opened, and the store says why.
        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("first"))
        #expect(
            await Self.code { _ = try await fixture.store(key: "first").value(for: "k", app: "app") } == "secureStorage.failed")
    }

    @Test func appsAreSeparate() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try await store.set("one", for: "token", app: "dev.pwakit.one")
        try await store.set("two", for: "token", app: "dev.pwakit.two")
        #expect(try await store.value(for: "token", app: "dev.pwakit.one") == "one")
        #expect(try await store.value(for: "token", app: "dev.pwakit.two") == "two")
        #expect(try await store.delete("token", app: "dev.pwakit.one"))
        #expect(try await store.value(for: "token", app: "dev.pwakit.two") == "two")
        // One app's sealed file put in place of another's does not open: each app has its own key.
        try await store.set("one-again", for: "token", app: "dev.pwakit.one")
        try FileManager.default.removeItem(at: fixture.sealed("dev.pwakit.two"))
        try FileManager.default.copyItem(at: fixture.sealed("dev.pwakit.one"), to: fixture.sealed("dev.pwakit.two"))
        #expect(
            await Self.code { _ = try await fixture.store().value(for: "token", app: "dev.pwakit.two") }
                == "secureStorage.failed")
    }

    @Test func theBackendSaysWhatItProtects() {
        let store = EncryptedFileStore(keyFile: URL(fileURLWithPath: "/k/secure-storage.key")) { _ in URL(fileURLWithPath: "/d") }
        #expect(store.backend.hasPrefix("encrypted-file"))
        #expect(store.backend.contains("/k/secure-storage.key"))
        #expect(store.backend.contains("not against programs running as this user"))
    }
}
