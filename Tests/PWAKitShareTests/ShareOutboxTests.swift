import Foundation
import PWAKitAPI
import PWAKitLinks
import PWAKitShare
import Synchronization
import Testing

@Suite("The share outbox")
struct ShareOutboxTests {
    static func outbox() throws -> ShareOutbox {
        try ShareOutbox(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-shares-\(UUID().uuidString)"))
    }

    @Test("a share is checked, kept on disk, listed oldest first; leftovers and unreadable files do not block")
    func keeps() throws {
        let box = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: box.directory) }
        let first = try box.enqueue(url: "https://example.com/a", note: "read", now: Date(timeIntervalSince1970: 100))
        let second = try box.enqueue(url: "https://example.com/b", note: "", now: Date(timeIntervalSince1970: 50))
        #expect(second.note == nil)
        // A killed process leaves a temporary file and, at worst, garbage under a share's name.
        try Data("partial".utf8).write(to: box.directory.appendingPathComponent("\(first.id).json.123.456.tmp"))
        let bogus = UUID().uuidString.lowercased()
        try Data("{not json".utf8).write(to: box.directory.appendingPathComponent("\(bogus).json"))
        let pending = try box.pending()
        #expect(pending.map(\.id) == [second.id, first.id])
        #expect(try box.rejected().map(\.id) == [bogus])
        try box.remove(id: second.id)
        #expect(try box.pending().map(\.id) == [first.id])
        // A fresh outbox over the same folder (another process) sees the same shares.
        #expect(try ShareOutbox(directory: box.directory).pending() == [first])
    }

    @Test("links and notes that cannot be shared are refused naming the field, and nothing is kept")
    func refuses() throws {
        let box = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: box.directory) }
        #expect(throws: LinkError.self) { try box.enqueue(url: "ftp://example.com/", note: nil) }
        #expect(throws: LinkError.self) { try box.enqueue(url: "https://user:pw@example.com/", note: nil) }
        #expect { try box.enqueue(url: "https://example.com/", note: "a\u{0}b") } throws: {
            ($0 as? ShareError)?.field == "note"
        }
        #expect { try box.enqueue(url: "https://example.com/", note: String(repeating: "n", count: 2001)) } throws: {
            ($0 as? ShareError)?.field == "note"
        }
        #expect(try box.pending().isEmpty)
    }

    /// A server stand-in: one post per canonical URL, a refusal for one path, and a switch for being down.
    final class FakeServer: Sendable {
        let posts = Mutex<[String: String]>([:])
        let down = Atomic(false)
        let calls = Atomic(0)

        func create(_ request: CreatePostRequest) async throws -> (PostResponse, created: Bool) {
            calls.add(1, ordering: .relaxed)
            if down.load(ordering: .relaxed) { throw APIClientError(.network, "connection refused") }
            if request.url.hasSuffix("/refused") {
                throw APIClientError(.init("invalid_request"), "url: not a page", field: "url", status: 400)
            }
            let canonical = try CanonicalURL(request.url).description
            let (id, created) = posts.withLock { posts in
                if let id = posts[canonical] { return (id, false) }
                let id = UUID().uuidString
                posts[canonical] = id
                return (id, true)
            }
            let now = Date()
            return (
                PostResponse(
                    id: id, url: request.url, canonicalUrl: canonical, instructions: request.instructions, status: "pending",
                    title: nil, description: nil, siteName: nil, imageUrl: nil, lastError: nil, createdAt: now,
                    updatedAt: now), created
            )
        }
    }

    @Test("shares wait while the server is down, go once it is up, and a resent share is the same post")
    func sends() async throws {
        let box = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: box.directory) }
        let server = FakeServer()
        let sender = ShareSender(outbox: box) { try await server.create($0) }
        _ = try box.enqueue(url: "https://example.com/one?utm_source=x", note: nil)
        _ = try box.enqueue(url: "https://example.com/two", note: "later")
        server.down.store(true, ordering: .relaxed)
        let down = try await sender.sendPending()
        #expect(down.count == 1, "it stops at the first share the server cannot take")
        #expect(try box.pending().count == 2)
        server.down.store(false, ordering: .relaxed)
        _ = try box.enqueue(url: "https://example.com/refused", note: nil)
        _ = try box.enqueue(url: "https://EXAMPLE.com/one", note: nil)
        let up = try await sender.sendPending()
        let created = up.compactMap { outcome -> Bool? in if case .posted(_, _, let created) = outcome { created } else { nil } }
        #expect(created == [true, true, false], "the second share of /one is the post the first made")
        #expect(up.contains { if case .rejected = $0 { true } else { false } })
        #expect(try box.pending().isEmpty)
        #expect(try box.rejected().count == 1)
        #expect(server.posts.withLock { $0.count } == 2)
    }
}
