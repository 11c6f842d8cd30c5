import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import Testing

@testable import PWAKitServer

@Suite("Blob endpoints")
struct BlobEndpointTests {
    @Test(
        "upload verifies the hash; download is immutable with ETag and ranges", arguments: Transport.allCases,
        StorageEngine.available)
    func uploadAndServe(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine) { $0.maximumBlobSize = 64 * 1024 }
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let bytes = (0..<10_000).map { UInt8($0 % 251) }
            let hash = SHA256.hex(of: bytes)
            let octet: HTTPFields = [.contentType: "application/octet-stream"]

            let missing = try await client.send(.post, "/v1/blobs/missing", json: ["sha256": [hash, hash]], token: admin)
            #expect(missing.json["missing"]?.count == 1)
            let wrong = try await client.sendBytes(.put, "/v1/blobs/\(hash)", body: bytes + [1], token: admin, headers: octet)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.json.errorCode == "hash_mismatch")
            #expect(try await client.send(.get, "/v1/blobs/\(hash)").status == .notFound)

            let put = try await client.sendBytes(.put, "/v1/blobs/\(hash)", body: bytes, token: admin, headers: octet)
            #expect(put.status == .created)
            let again = try await client.sendBytes(.put, "/v1/blobs/\(hash)", body: bytes, token: admin, headers: octet)
            #expect(again.status == .ok)
            #expect(again.json["created"]?.bool == false)
            #expect(
                try await client.send(.post, "/v1/blobs/missing", json: ["sha256": [hash]], token: admin).json["missing"]?.count
                    == 0)

            let get = try await client.send(.get, "/v1/blobs/\(hash)")
            #expect(get.status == .ok)
            #expect(get.bytes == bytes)
            #expect(get.headers[.eTag] == "\"\(hash)\"")
            #expect(get.headers[.cacheControl]?.contains("immutable") == true)
            #expect(get.headers[.acceptRanges] == "bytes")

            #expect(transport == .router || get.headers[.date] != nil)
            let head = try await client.send(.head, "/v1/blobs/\(hash)")
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == "10000")

            let cached = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.ifNoneMatch: "\"\(hash)\""])
            #expect(cached.status == .notModified)

            let range = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=100-199"])
            #expect(range.status == .partialContent)
            #expect(range.bytes == Array(bytes[100...199]))
            #expect(range.headers[.contentRange] == "bytes 100-199/10000")
            let suffix = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=-10"])
            #expect(suffix.bytes == Array(bytes[9990...]))
            let open = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=9995-"])
            #expect(open.bytes == Array(bytes[9995...]))
            let beyond = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=20000-"])
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */10000")
            let staleIfRange = try await client.send(
                .get, "/v1/blobs/\(hash)", headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(staleIfRange.status == .ok)
            #expect(staleIfRange.bytes.count == 10_000)
            let garbage = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=abc"])
            #expect(garbage.status == .ok)

            let huge = [UInt8](repeating: 7, count: 64 * 1024 + 1)
            let tooLarge = try await client.sendBytes(
                .put, "/v1/blobs/\(SHA256.hex(of: huge))", body: huge, token: admin, headers: octet)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.json.errorCode == "payload_too_large")

            let badHash = try await client.send(.get, "/v1/blobs/ABC")
            #expect(badHash.status == .badRequest)
            #expect(badHash.json.errorField == "sha256")
            let user = try await client.register()
            let forbidden = try await client.sendBytes(.put, "/v1/blobs/\(hash)", body: bytes, token: user.access, headers: octet)
            #expect(forbidden.status == .forbidden)
            let badList = try await client.send(.post, "/v1/blobs/missing", json: ["sha256": ["zz"]], token: admin)
            #expect(badList.json.errorField == "sha256[0]")
        }
    }
}

@Suite("File blob store")
struct FileBlobStoreTests {
    @Test("sizes come from regular files only; a directory at a blob's path is no blob")
    func sizes() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try FileBlobStore(root: root)
        let empty = SHA256.hex(of: [UInt8]())
        let full = SHA256.hex(of: [1, 2, 3])
        let directory = String(repeating: "ab", count: 32)
        for (hash, bytes) in [(empty, Data()), (full, Data([1, 2, 3]))] {
            let path = URL(fileURLWithPath: store.path(for: hash))
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: path)
        }
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: store.path(for: directory)), withIntermediateDirectories: true)
        #expect(try await store.size(of: empty) == 0)
        #expect(try await store.size(of: full) == 3)
        #expect(try await store.size(of: directory) == nil)
        #expect(try await store.size(of: String(repeating: "cd", count: 32)) == nil)
        #expect(try await store.size(of: "../etc/passwd") == nil)
    }
}

@Suite("Large blobs")
struct LargeBlobTests {
    @Test(
        "blobs above the direct-read limit stream whole and in ranges; ranges below it are read in chunks",
        arguments: Transport.allCases, StorageEngine.available)
    func streaming(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let bytes = (0..<(2 * 1024 * 1024 + 300_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
            let hash = SHA256.hex(of: bytes)
            let put = try await client.sendBytes(
                .put, "/v1/blobs/\(hash)", body: bytes, token: admin, headers: [.contentType: "application/octet-stream"])
            #expect(put.status == .created)
            let whole = try await client.send(.get, "/v1/blobs/\(hash)")
            #expect(whole.bytes == bytes)
            let tail = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=100-"])
            #expect(tail.status == .partialContent)
            #expect(tail.bytes == Array(bytes[100...]))
            // Ranges under the limit are read directly, in chunks; these start and end inside chunks.
            for (first, last) in [(100, 1_000_099), (70_000, 200_000), (65_535, 65_536)] {
                let part = try await client.send(.get, "/v1/blobs/\(hash)", headers: [.range: "bytes=\(first)-\(last)"])
                #expect(part.status == .partialContent)
                #expect(part.bytes == Array(bytes[first...last]))
            }
        }
    }
}
