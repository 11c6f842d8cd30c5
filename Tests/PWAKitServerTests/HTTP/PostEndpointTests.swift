import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PWAKitTesting
import Testing

@testable import PWAKitServer

@Suite("Posts: /v1/posts")
struct PostEndpointTests {
    @Test(
        "a share is stored canonically with one ingestion job; the same page again is the same post",
        arguments: StorageEngine.available)
    func createAndDedupe(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let storage = harness.server.storage
        try await harness.test(.router) { client in
            let user = try await client.register()
            let host = "site-\(uniqueSuffix()).example.com"
            let created = try await client.send(
                .post, "/v1/posts",
                json: ["url": "HTTPS://\(host.uppercased()):443/a/./b?utm_source=mail&id=1#top", "instructions": "read later"],
                token: user.access)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"]?.string)
            #expect(created.headers[.location] == "/v1/posts/\(id)")
            #expect(created.json["canonicalUrl"]?.string == "https://\(host)/a/b?id=1")
            #expect(created.json["status"]?.string == "pending")
            #expect(created.json["instructions"]?.string == "read later")
            let again = try await client.send(
                .post, "/v1/posts", json: ["url": "https://\(host)/a/b?id=1&fbclid=xyz"], token: user.access)
            #expect(again.status == .ok)
            #expect(again.json["id"]?.string == id)
            let jobs = try await storage.jobs(postId: id)
            #expect(jobs.count == 1)
            #expect(jobs.first?.kind == PlatformServer.ingestPostJob)
            // NB: a live server process of another suite sharing the database may have claimed it already.
            #expect(jobs.first?.state == .available || jobs.first?.state == .running || jobs.first?.state == .completed)
            // Another user sharing the same page gets a post of their own.
            let other = try await client.register()
            let theirs = try await client.send(.post, "/v1/posts", json: ["url": "https://\(host)/a/b?id=1"], token: other.access)
            #expect(theirs.status == .created)
            #expect(theirs.json["id"]?.string != id)
            let check = try await client.send(
                .post, "/v1/posts/canonicalize", json: ["url": "https://\(host)/a/../a/b?id=1&gclid=1"], token: user.access)
            #expect(check.json["canonicalUrl"]?.string == "https://\(host)/a/b?id=1")
            #expect(check.json["existingPostId"]?.string == id)
        }
    }

    @Test("1,000 concurrent identical shares make one post and at most one active job", arguments: StorageEngine.available)
    func concurrentShares(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let storage = harness.server.storage
        try await harness.test(.router) { client in
            let user = try await client.register()
            let url = "https://burst-\(uniqueSuffix()).example.com/page"
            let ids = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<1000 {
                    group.addTask {
                        let answer = try await client.send(.post, "/v1/posts", json: ["url": url], token: user.access)
                        return (answer.status.code, answer.json["id"]?.string)
                    }
                }
                var seen: [(Int, String?)] = []
                for try await result in group { seen.append(result) }
                return seen
            }
            #expect(ids.filter { $0.0 == 201 }.count == 1)
            #expect(ids.allSatisfy { $0.0 == 201 || $0.0 == 200 })
            let unique = Set(ids.compactMap(\.1))
            #expect(unique.count == 1)
            let id = try #require(unique.first)
            let active = try await storage.jobs(postId: id).filter { $0.state == .available || $0.state == .running }
            #expect(active.count <= 1)
            #expect(try await storage.jobs(postId: id).count == 1)
        }
    }

    @Test(
        "pages run newest first without gaps or repeats; bad limits and cursors name their field",
        arguments: StorageEngine.available)
    func paging(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let clock = harness.clock
        try await harness.test(.router) { client in
            let user = try await client.register()
            var made: [String] = []
            /// The second each post was made in.
            var second: [String: Int] = [:]
            var now = 0
            for index in 0..<25 {
                if index % 3 != 0 {  // some share a millisecond: the id breaks the tie
                    clock.advance(seconds: 1)
                    now += 1
                }
                let answer = try await client.send(
                    .post, "/v1/posts", json: ["url": "https://page-\(index).example.com/"], token: user.access)
                made.append(try #require(answer.json["id"]?.string))
                second[made[made.count - 1]] = now
            }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "/v1/posts?limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, query, token: user.access)
                #expect(page.status == .ok, "\(page.text)")
                for index in 0..<page.json["posts"]!.count { seen.append(page.json["posts"]![index]!["id"]!.string!) }
                cursor = page.json["nextCursor"]?.string
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen.count == 25 && Set(seen) == Set(made))
            // NB: newest first; ids that share a second come in the database's order of ids, which
            // depends on its collation, so only the seconds are compared.
            let seconds = seen.map { second[$0] ?? -1 }
            #expect(seconds == seconds.sorted(by: >), "\(seconds)")
            #expect(seconds.first == now && seconds.last == 0)
            for (query, field) in [
                ("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("cursor=%%%", "cursor"),
                ("cursor=bm90LWEtY3Vyc29y", "cursor"), ("cursor=" + String(repeating: "A", count: 300), "cursor"),
            ] {
                let refused = try await client.send(.get, "/v1/posts?\(query)", token: user.access)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.json.errorField == field, "\(query): \(refused.text)")
            }
        }
    }

    @Test("only the owner sees, edits or deletes a post; others get 404 like a missing one", arguments: StorageEngine.available)
    func ownership(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let storage = harness.server.storage
        try await harness.test(.router) { client in
            let owner = try await client.register()
            let stranger = try await client.register()
            let created = try await client.send(
                .post, "/v1/posts", json: ["url": "https://owned-\(uniqueSuffix()).example.com/"], token: owner.access)
            let id = try #require(created.json["id"]?.string)
            for (method, body) in [(HTTPRequest.Method.get, nil), (.patch, #"{"instructions":"x"}"#), (.delete, nil)] {
                let answer = try await client.send(method, "/v1/posts/\(id)", body: body, token: stranger.access)
                #expect(answer.status == .notFound, "\(method)")
            }
            #expect(try await client.send(.get, "/v1/posts/no-such-post", token: owner.access).status == .notFound)
            let edited = try await client.send(
                .patch, "/v1/posts/\(id)", json: ["instructions": "summarise"], token: owner.access)
            #expect(edited.json["instructions"]?.string == "summarise")
            let cleared = try await client.send(.patch, "/v1/posts/\(id)", body: #"{"instructions":null}"#, token: owner.access)
            #expect(cleared.status == .ok && cleared.json["instructions"] == nil)
            let deleted = try await client.send(.delete, "/v1/posts/\(id)", token: owner.access)
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/v1/posts/\(id)", token: owner.access).status == .notFound)
            #expect(try await storage.jobs(postId: id).isEmpty)
        }
    }

    @Test("malformed, hostile and oversized input is refused naming the field", arguments: StorageEngine.available)
    func hostile(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let user = try await client.register()
            #expect(try await client.send(.post, "/v1/posts", json: ["url": "https://a.example.com/"]).status == .unauthorized)
            let cases: [(String, String)] = [
                (#"{"url":"ftp://example.com/"}"#, "url"), (#"{"url":"https://user:pw@example.com/"}"#, "url"),
                (#"{"url":"javascript:alert(1)"}"#, "url"), (#"{"url":"https://127.1/"}"#, "url"),
                (#"{"url":"https://example.com/\#(String(repeating: "a", count: 3000))"}"#, "url"), (#"{"url":7}"#, "url"),
                (#"{}"#, "url"), (#"{"url":"https://example.com/","instructions":"a\u0000b"}"#, "instructions"),
                (#"{"url":"https://example.com/","instructions":"\#(String(repeating: "n", count: 2001))"}"#, "instructions"),
                ("[1]", "body"), ("not json", "body"),
            ]
            for (body, field) in cases {
                let answer = try await client.send(.post, "/v1/posts", body: body, token: user.access)
                #expect(answer.status == .badRequest, "\(body.prefix(60)): \(answer.text)")
                #expect(answer.json.errorField == field, "\(body.prefix(60)): \(answer.text)")
            }
            let huge = #"{"url":"https://example.com/","instructions":""# + String(repeating: "x", count: 70_000) + #""}"#
            #expect(try await client.send(.post, "/v1/posts", body: huge, token: user.access).status == .contentTooLarge)
            let canonical = try await client.send(
                .post, "/v1/posts/canonicalize", body: #"{"url":"mailto:a@b"}"#, token: user.access)
            #expect(canonical.status == .badRequest && canonical.json.errorField == "url")
        }
    }
}
