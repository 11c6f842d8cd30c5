import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import PWAKitServer

@Suite("GET /.well-known/apple-app-site-association")
struct SiteAssociationEndpointTests {
    @Test("the configured document is answered as it is, without a token, cacheable; other methods are 405")
    func served() async throws {
        let document = Data(
            #"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.example.notes"],"components":[{"/":"/open/*"}]}]}}"#.utf8)
        let harness = try await Harness.make(engine: .sqlite) { $0.siteAssociation = document }
        try await harness.test(.router) { client in
            let answer = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json")
            #expect(answer.headers[.cacheControl] == "public, max-age=3600")
            #expect(Data(answer.text.utf8) == document)
            let post = try await client.send(.post, "/.well-known/apple-app-site-association", body: "{}")
            #expect(post.status == .methodNotAllowed)
        }
    }

    @Test("without a document the path is 404 not_found")
    func absent() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let answer = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(answer.status == .notFound)
            #expect(answer.json["error"]?["code"]?.string == "not_found")
        }
    }
}
