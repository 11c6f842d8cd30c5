import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
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
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport(), sleep: { _ in })
        let catalog = CatalogStore(client: offline, tokens: FixedToken(token: "t"), directory: directory)
        let stale = try await catalog.refresh()
        #expect(stale.isStale)
        #expect(stale.apps.map(\.id) == ["quiz"])
        let empty = CatalogStore(client: offline, tokens: FixedToken(token: "t"), directory: temporaryDirectory("catalog"))
        let error = await #expect(throws: APIClientError.self) { try await empty.refresh() }
        #expect(error?.code == .network)
    }
}
