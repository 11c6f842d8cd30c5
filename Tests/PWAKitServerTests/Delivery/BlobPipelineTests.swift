#if canImport(Glibc)
    import Crypto
    import Foundation
    import HTTPTypes
    import HummingbirdTesting
    import NIOCore
    import PWAKitBundles
    import Synchronization
    import Testing

    @testable import PWAKitServer

    /// Blob requests answered in front of the HTTP/1.1 decoder, over a real socket.
    @Suite("Blob delivery in the pipeline")
    struct BlobPipelineTests {
        /// A clock in whole seconds that tests move by hand.
        final class Seconds: Sendable {
            private let value = Mutex(1_800_000_000)
            var now: Int { value.withLock { $0 } }
            func advance() { value.withLock { $0 += 1 } }
        }

        /// Stores `bytes` as a blob straight into the harness's store and returns its hash.
        static func put(_ bytes: [UInt8], in harness: Harness) throws -> String {
            let hash = SHA256.hex(of: bytes)
            let path = URL(fileURLWithPath: try FileBlobStore(root: harness.blobRoot).path(for: hash))
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: path)
            return hash
        }

        static func get(_ path: String, _ headers: [String] = [], method: String = "GET") -> String {
            "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        }

        @Test("every answer matches the router's, header for header and byte for byte, for blobs in memory and on disk")
        func sameAnswersAsTheRouter() async throws {
            let harness = try await Harness.make(engine: .sqlite)
            let seconds = Seconds()
            let cache = BlobCache(store: try FileBlobStore(root: harness.blobRoot))
            let sizes = [0, 10_000, 100_000, FileBlobStore.directReadLimit + 1000]
            let hashes = try sizes.map { size in
                try Self.put((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }, in: harness)
            }
            try await harness.test(.live, blobCache: cache, serverName: "pwakit", now: { seconds.now }) { client in
                let port = try #require(client.port)
                let fast = try RawHTTPConnection(port: port)
                let routed = try RawHTTPConnection(port: port)
                // NB: more header lines than the pipeline answers sends the same request to the router.
                let filler = (0...RequestFramer.maximumBlobHeaderCount).map { "X-Filler-\($0): 1" }
                for (size, hash) in zip(sizes, hashes) {
                    let variants: [[String]] = [
                        [], ["Range: bytes=100-199"], ["Range: bytes=-10"], ["Range: bytes=9995-"], ["Range: bytes=0-0"],
                        ["Range: bytes=abc"], ["Range: bytes=0-1,5-6"], ["Range: bytes=\(size + 10)-"],
                        ["If-None-Match: \"\(hash)\""], ["If-None-Match: *"], ["If-None-Match: \"other\", \"\(hash)\""],
                        ["If-None-Match: \"other\""], ["Range: bytes=0-9", "If-Range: \"other\""],
                        ["Range: bytes=0-9", "If-Range: \"\(hash)\""],
                    ]
                    for method in ["GET", "HEAD"] {
                        for headers in variants {
                            let path = "/v1/blobs/\(hash)"
                            try await fast.send(Self.get(path, headers, method: method))
                            try await routed.send(Self.get(path, headers + filler, method: method))
                            let mine = try await fast.readResponse(bodiless: method == "HEAD")
                            let theirs = try await routed.readResponse(bodiless: method == "HEAD")
                            let label = "\(method) \(size) bytes \(headers)"
                            #expect(mine.status == theirs.status, "\(label)")
                            #expect(
                                mine.headers.filter { !$0.hasPrefix("date:") }.sorted()
                                    == theirs.headers.filter { !$0.hasPrefix("date:") }.sorted(), "\(label)")
                            #expect(mine.header("date") != nil, "\(label)")
                            #expect(mine.body == theirs.body, "\(label)")
                        }
                    }
                }
            }
            // Every blob was answered from the cache, not only by the router.
            #expect(cache.usage.entries == sizes.count)
        }

        @Test("pipelined requests are answered in order when blobs and router answers interleave")
        func pipelinedOrder() async throws {
            let harness = try await Harness.make(engine: .sqlite)
            let bytes = (0..<5000).map { UInt8($0 % 253) }
            let hash = try Self.put(bytes, in: harness)
            try await harness.test(.live) { client in
                let connection = try RawHTTPConnection(port: try #require(client.port))
                let blob = "/v1/blobs/\(hash)"
                try await connection.send(
                    Self.get(blob) + Self.get("/v1/apps") + Self.get(blob) + Self.get("/v1/health")
                        + Self.get(blob, ["Connection: close"], method: "HEAD"))
                var statuses: [RawResponse] = []
                for bodiless in [false, false, false, false, true] {
                    statuses.append(try await connection.readResponse(bodiless: bodiless))
                }
                #expect(statuses.map(\.status) == [200, 401, 200, 200, 200])
                #expect(statuses[0].body == bytes && statuses[2].body == bytes)
                #expect(try await connection.readToEnd().isEmpty)
            }
        }

        @Test("requests with bodies, chunked bodies and a close reach the router intact, and blobs after them are answered")
        func framing() async throws {
            let harness = try await Harness.make(engine: .sqlite)
            let bytes = (0..<3000).map { UInt8($0 % 251) }
            let hash = try Self.put(bytes, in: harness)
            try await harness.test(.live) { client in
                let connection = try RawHTTPConnection(port: try #require(client.port))
                let login = #"{"email":"nobody@example.com","password":"wrong password"}"#
                let blob = "/v1/blobs/\(hash)"
                let json = "Content-Type: application/json"
                let sized = Self.get("/v1/auth/login", [json, "Content-Length: \(login.utf8.count)"], method: "POST") + login
                let chunked =
                    Self.get("/v1/auth/login", [json, "Transfer-Encoding: chunked"], method: "POST")
                    + String(login.utf8.count, radix: 16) + "\r\n" + login + "\r\n0\r\n\r\n"
                try await connection.send(
                    sized + Self.get(blob) + chunked + Self.get(blob, ["Range: bytes=10-19"])
                        + Self.get(blob, ["Connection: close"]))
                let first = try await connection.readResponse()
                #expect(first.status == 401)
                #expect(String(decoding: first.body, as: UTF8.self).contains("invalid_credentials"))
                #expect(try await connection.readResponse().body == bytes)
                #expect(try await connection.readResponse().status == 401)
                let range = try await connection.readResponse()
                #expect(range.status == 206)
                #expect(range.body == Array(bytes[10...19]))
                #expect(try await connection.readResponse().body == bytes)
                #expect(try await connection.readToEnd().isEmpty)
            }
        }

        @Test("missing blobs, malformed hashes and unsatisfiable ranges get the router's errors")
        func errors() async throws {
            let harness = try await Harness.make(engine: .sqlite)
            let hash = try Self.put([1, 2, 3], in: harness)
            try await harness.test(.live) { client in
                let connection = try RawHTTPConnection(port: try #require(client.port))
                try await connection.send(
                    Self.get("/v1/blobs/\(String(repeating: "0", count: 64))") + Self.get("/v1/blobs/ABC")
                        + Self.get("/v1/blobs/\(hash)", ["Range: bytes=5-"]) + Self.get("/v1/blobs/\(hash)"))
                let missing = try await connection.readResponse()
                #expect(missing.status == 404)
                #expect(String(decoding: missing.body, as: UTF8.self).contains("not_found"))
                #expect(try await connection.readResponse().status == 400)
                let unsatisfiable = try await connection.readResponse()
                #expect(unsatisfiable.status == 416)
                #expect(unsatisfiable.header("content-range") == "bytes */3")
                #expect(try await connection.readResponse().body == [1, 2, 3])
            }
        }

        @Test("a deleted blob is served until its cache entry is revalidated, then is not found")
        func deletion() async throws {
            let harness = try await Harness.make(engine: .sqlite)
            let seconds = Seconds()
            let hash = try Self.put([9, 8, 7], in: harness)
            let cache = BlobCache(store: try FileBlobStore(root: harness.blobRoot))
            try await harness.test(.live, blobCache: cache, now: { seconds.now }) { client in
                let connection = try RawHTTPConnection(port: try #require(client.port))
                try await connection.send(Self.get("/v1/blobs/\(hash)"))
                #expect(try await connection.readResponse().body == [9, 8, 7])
                try FileManager.default.removeItem(atPath: try FileBlobStore(root: harness.blobRoot).path(for: hash))
                try await connection.send(Self.get("/v1/blobs/\(hash)"))
                #expect(try await connection.readResponse().status == 200)
                seconds.advance()
                try await connection.send(Self.get("/v1/blobs/\(hash)"))
                #expect(try await connection.readResponse().status == 404)
            }
        }

        @Test("graceful shutdown lets a blob response sent from the pipeline finish before the connection closes")
        func shutdownFinishesResponses() async throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-shutdown-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: work) }
            let data = work.appendingPathComponent("data")
            // NB: far more than loopback's socket buffers hold with a fixed 64 KiB receive buffer.
            let bytes = (0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }
            let hash = SHA256.hex(of: bytes)
            let path = URL(fileURLWithPath: try FileBlobStore(root: data.appendingPathComponent("blobs")).path(for: hash))
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: path)
            let server = try await ServerProcess.start(["--data-dir", data.path])
            let port = try #require(server.baseURL.port)
            let connection = try RawHTTPConnection(port: port, receiveBuffer: 64 * 1024)
            try await connection.send(Self.get("/v1/blobs/\(hash)"))
            let head = try await connection.readHead()
            #expect(head.status == 200)
            let exited = Task { await server.waitForExit() }
            server.process.terminate()
            let body = try await connection.readToEnd()
            #expect(body.count == bytes.count)
            #expect(SHA256.hex(of: body) == hash)
            #expect(await exited.value == 0)
        }
    }
#endif
