import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
import PWAKitTesting
import Testing

@Suite("Catalog against a live server")
struct CatalogTests {
    @Test("conditional requests: an unchanged catalog answers 304 and the kept copy is used")
    func conditional() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: .generate(), permissions: ["haptics"])
            let (account, _) = try await platform.signedInAccount()
            let directory = temporaryDirectory("catalog")
            let catalog = CatalogStore(client: platform.client, tokens: account, directory: directory)
            let first = try await catalog.refresh()
            #expect(first.apps.map(\.id) == ["quiz"])
            #expect(first.apps.first?.permissions == ["haptics"])
            let etag = try #require(first.etag)
            // The raw conditional request answers 304.
            let token = try await account.accessToken()
            guard case .notModified = try await platform.client.apps(accessToken: token, ifNoneMatch: etag) else {
                throw TestFailure("expected 304")
            }
            let second = try await catalog.refresh()
            #expect(second.apps == first.apps)
            #expect(second.etag == etag)
            // A new app changes the tag.
            try await platform.createApp("chess", key: .generate())
            let third = try await catalog.refresh()
            #expect(third.apps.map(\.id).sorted() == ["chess", "quiz"])
            #expect(third.etag != etag)
        }
    }

    @Test("offline, the last good copy is answered and marked stale; with none kept the error is reported")
    func offline() async throws {
        let directory = temporaryDirectory("catalog")
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: .generate())
            let (account, _) = try await platform.signedInAccount()
            _ = try await CatalogStore(client: platform.client, tokens: account, directory: directory).refresh()
        }
        let offline = APIClient(
            baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport(), clock: ImmediateClock())
        let catalog = CatalogStore(client: offline, tokens: FixedToken(token: "t"), directory: directory)
        let stale = try await catalog.refresh()
        #expect(stale.isStale)
        #expect(stale.apps.map(\.id) == ["quiz"])
        let empty = CatalogStore(client: offline, tokens: FixedToken(token: "t"), directory: temporaryDirectory("catalog"))
        let error = await #expect(throws: APIClientError.self) { try await empty.refresh() }
        #expect(error?.code == .network)
    }

    @Test("a kept copy that cannot be read is store_corrupt naming it, offline too, and is left as it is")
    func unreadableCopy() async throws {
        let offline = APIClient(
            baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport(), clock: ImmediateClock())
        let cases = [
            ("not json", "catalog"),
            (#"{"apps":[{"id":1}],"fetchedAt":"2024-01-01T00:00:00Z","isStale":false}"#, "catalog.apps[0]"),
        ]
        for (text, field) in cases {
            let directory = temporaryDirectory("catalog")
            let file = directory.appendingPathComponent("catalog.json")
            try Data(text.utf8).write(to: file)
            let catalog = CatalogStore(client: offline, tokens: FixedToken(token: "t"), directory: directory)
            let read = await #expect(throws: MiniAppError.self, "not taken for no copy") { try await catalog.cached() }
            #expect(read?.code == .storeCorrupt)
            #expect(read?.field?.hasPrefix(field) == true, "\(String(describing: read))")
            let refreshed = await #expect(throws: MiniAppError.self, "not 'the server cannot be reached'") {
                try await catalog.refresh()
            }
            #expect(refreshed?.code == .storeCorrupt)
            #expect(refreshed?.field?.hasPrefix(field) == true, "\(String(describing: refreshed))")
            #expect(refreshed?.message.contains("catalog.json") == true)
            #expect(try Data(contentsOf: file) == Data(text.utf8), "left as it is")
        }
    }

    @Test("a successful fetch replaces a kept copy that cannot be read")
    func unreadableCopyReplaced() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: .generate())
            let (account, _) = try await platform.signedInAccount()
            let directory = temporaryDirectory("catalog")
            try Data("not json".utf8).write(to: directory.appendingPathComponent("catalog.json"))
            let catalog = CatalogStore(client: platform.client, tokens: account, directory: directory)
            #expect(try await catalog.refresh().apps.map(\.id) == ["quiz"])
            let reread = CatalogStore(client: platform.client, tokens: account, directory: directory)
            #expect(try await reread.cached()?.apps.map(\.id) == ["quiz"])
        }
    }
}

@Suite("Catalog entries for the launcher")
struct CatalogEntryTests {
    @Test("each entry joins the catalog with the store: installed, pending, available, rolled back, size")
    func entries() throws {
        let key = SigningKey.generate()
        let store = try BundleStore(root: temporaryDirectory())
        let v1Files = ["index.html": bytes("one"), "app.js": bytes("var a = 1")]
        let v1 = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(v1, files: v1Files)
        let v2Files = ["index.html": bytes("two")]
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key)
        try store.installing(v2, files: v2Files, activation: .nextLaunch)
        let v3 = try verifiedRelease("quiz", "3.0.0", files: ["index.html": bytes("three")], key: key)
        let app = { (id: String) in
            AppResponse(
                id: id, name: id.capitalized, description: "", icon: "", entryPath: "index.html", permissions: [],
                channels: ["stable", "beta"])
        }
        let catalog = CatalogSnapshot(apps: [app("quiz"), app("chess")], etag: nil, fetchedAt: Date(), isStale: false)
        let entries = try CatalogEntry.entries(catalog: catalog, store: store, available: ["quiz": v3])
        #expect(entries.map(\.id) == ["quiz", "chess"])
        #expect(entries[0].installedVersion == "2.0.0")
        #expect(entries[0].pendingVersion == "2.0.0")
        #expect(entries[0].availableVersion == "3.0.0")
        #expect(entries[0].updateAvailable)
        #expect(entries[0].bytes == 3 + 9 + 3)
        #expect(entries[0].channel == "stable")
        #expect(entries[1].installedVersion == nil && !entries[1].updateAvailable && entries[1].bytes == 0)
    }
}
