import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PWAKitEncoding
import PWAKitLinks
import Testing

@testable import PWAKitServer

@Suite("Ingesting a shared link")
struct IngestionTests {
    /// Text as Latin-1 bytes (every character here is below U+0100); Content-Length counts bytes.
    static func latin1(_ text: String) -> [UInt8] {
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let bodyBytes = body.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let fixedHead = head.split(separator: "\r\n").map { line in
            line.hasPrefix("Content-Length:") ? "Content-Length: \(bodyBytes.count)" : String(line)
        }.joined(separator: "\r\n")
        return Array((fixedHead + "\r\n\r\n").utf8) + bodyBytes
    }

    /// A server whose link fetcher resolves `host` to the test site and may reach only it.
    static func harness(_ engine: StorageEngine, host: String, port: Int, attempts: Int = 8) async throws -> Harness {
        try await Harness.make(engine: engine) { configuration in
            configuration.ingestionAttempts = attempts
            configuration.linkFetcher = SafeFetcher(
                resolver: FixedResolver([host: [[127, 0, 0, 1]], "amp.\(host)": [[127, 0, 0, 1]]])
            ) { address, candidate in
                address == [127, 0, 0, 1] && candidate == port ? nil : "not the test site"
            }
        }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)

    static func site() async throws -> CountingSite {
        let site = CountingSite { (path: String) -> [UInt8]? in
            switch path {
            case "/article":
                // NB: the page is windows-1252, as its header says: é is one byte, 0xE9.
                Self.latin1(
                    SafeFetcherTests.ok(
                        """
                        <html><head><title>Plain</title>
                        <meta property="og:title" content="Caf\u{E9} opens">
                        <meta property="og:description" content="A new caf\u{E9} on the corner.">
                        <meta property="og:site_name" content="Corner News">
                        <meta property="og:image" content="/cover.png">
                        <link rel="canonical" href="/article?edition=web">
                        </head><body></body></html>
                        """, type: "text/html; charset=windows-1252"))
            case "/cover.png":
                Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(Self.png.count)\r\nConnection: close\r\n\r\n"
                        .utf8) + Self.png
            case let amp where amp.hasPrefix("/amp/"):
                // NB: an AMP page names its ordinary page as canonical, on the same site without `amp.`:
                // `/amp/<host:port>/story.amp` names `http://<host:port>/story`.
                Array(
                    SafeFetcherTests.ok(
                        """
                        <!doctype html><html \u{26A1} lang="en"><head><meta charset="utf-8">
                        <script async src="https://cdn.ampproject.org/v0.js"></script>
                        <title>Harbour Story</title>
                        <link rel="canonical" href="http://\(amp.split(separator: "/")[1])/story">
                        <meta name="description" content="Boats, mostly.">
                        </head><body></body></html>
                        """
                    ).utf8)
            case "/gone": Array("HTTP/1.1 410 Gone\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            case "/busy": Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            default: Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            }
        }
        try await site.start()
        return site
    }

    @Test(
        "a post becomes ready with its preview, its thumbnail served as a blob, its canonical URL the page's",
        arguments: StorageEngine.available)
    func ready(engine: StorageEngine) async throws {
        let site = try await Self.site()
        let port = site.port
        let host = "site-\(uniqueSuffix()).test"
        let harness = try await Self.harness(engine, host: host, port: port)
        let server = harness.server
        try await harness.test(.router) { client in
            let user = try await client.register()
            let created = try await client.send(
                .post, "/v1/posts", json: ["url": "http://\(host):\(port)/article?utm_source=x"], token: user.access)
            let id = try #require(created.json["id"]?.string)
            let job = try #require(try await server.storage.jobs(postId: id).first)
            try await server.ingestionHandler.run(job)
            let post = try await client.send(.get, "/v1/posts/\(id)", token: user.access)
            #expect(post.json["status"]?.string == "ready", "\(post.text)")
            #expect(post.json["title"]?.string == "Café opens")
            #expect(post.json["description"]?.string == "A new café on the corner.")
            #expect(post.json["siteName"]?.string == "Corner News")
            #expect(post.json["canonicalUrl"]?.string == "http://\(host):\(port)/article?edition=web")
            let hash = Hex.encode(SHA256.hash(data: Self.png))
            #expect(post.json["imageUrl"]?.string == "/v1/blobs/\(hash)")
            let image = try await client.send(.get, "/v1/blobs/\(hash)")
            #expect(image.status == .ok && image.bytes == Self.png)
        }
        await site.stop()
    }

    @Test("an AMP page's post moves to the ordinary page its canonical link names", arguments: StorageEngine.available)
    func ampPage(engine: StorageEngine) async throws {
        let site = try await Self.site()
        let port = site.port
        let host = "site-\(uniqueSuffix()).test"
        let harness = try await Self.harness(engine, host: host, port: port)
        let server = harness.server
        try await harness.test(.router) { client in
            let user = try await client.register()
            let created = try await client.send(
                .post, "/v1/posts", json: ["url": "http://amp.\(host):\(port)/amp/\(host):\(port)/story.amp"], token: user.access)
            let id = try #require(created.json["id"]?.string)
            let job = try #require(try await server.storage.jobs(postId: id).first)
            try await server.ingestionHandler.run(job)
            let post = try await client.send(.get, "/v1/posts/\(id)", token: user.access)
            #expect(post.json["status"]?.string == "ready", "\(post.text)")
            #expect(post.json["title"]?.string == "Harbour Story")
            #expect(post.json["description"]?.string == "Boats, mostly.")
            #expect(post.json["canonicalUrl"]?.string == "http://\(host):\(port)/story")
            #expect(
                post.json["url"]?.string == "http://amp.\(host):\(port)/amp/\(host):\(port)/story.amp",
                "the link as shared is kept")
            // Sharing the ordinary page now finds the same post.
            let again = try await client.send(
                .post, "/v1/posts", json: ["url": "http://\(host):\(port)/story"], token: user.access)
            #expect(again.status == .ok)
            #expect(again.json["id"]?.string == id)
        }
        await site.stop()
    }

    @Test(
        "a page that is gone fails the post at once; a busy one is retried, and fails on the last attempt",
        arguments: StorageEngine.available)
    func failures(engine: StorageEngine) async throws {
        let site = try await Self.site()
        let port = site.port
        let host = "site-\(uniqueSuffix()).test"
        let harness = try await Self.harness(engine, host: host, port: port, attempts: 2)
        let server = harness.server
        try await harness.test(.router) { client in
            let user = try await client.register()
            let gone = try #require(
                try await client.send(.post, "/v1/posts", json: ["url": "http://\(host):\(port)/gone"], token: user.access)
                    .json["id"]?.string)
            let goneJob = try #require(try await server.storage.jobs(postId: gone).first)
            await #expect(throws: PermanentJobFailure.self) { try await server.ingestionHandler.run(goneJob) }
            let failed = try await client.send(.get, "/v1/posts/\(gone)", token: user.access)
            #expect(failed.json["status"]?.string == "failed")
            #expect(failed.json["lastError"]?.string?.contains("410") == true)

            let busy = try #require(
                try await client.send(.post, "/v1/posts", json: ["url": "http://\(host):\(port)/busy"], token: user.access)
                    .json["id"]?.string)
            var busyJob = try #require(try await server.storage.jobs(postId: busy).first)
            busyJob.attempt = 1
            await #expect(throws: (any Error).self) { try await server.ingestionHandler.run(busyJob) }
            #expect(try await client.send(.get, "/v1/posts/\(busy)", token: user.access).json["status"]?.string == "pending")
            busyJob.attempt = 2
            await #expect(throws: (any Error).self) { try await server.ingestionHandler.run(busyJob) }
            let last = try await client.send(.get, "/v1/posts/\(busy)", token: user.access)
            #expect(last.json["status"]?.string == "failed")
            #expect(last.json["lastError"]?.string?.contains("503") == true)
        }
        await site.stop()
    }
}
