import Crypto
import Foundation
import NIOCore
import PWAKitBundles
import Testing

@testable import PWAKitServer

@Suite("Blob cache")
struct BlobCacheTests {
    /// A store in a fresh directory with blobs of these sizes written straight to disk; returns their keys.
    static func store(sizes: [Int]) throws -> (FileBlobStore, [BlobKey]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-cache-\(UUID().uuidString)")
        let store = try FileBlobStore(root: root)
        var keys: [BlobKey] = []
        for (index, size) in sizes.enumerated() {
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
            let hash = SHA256.hex(of: bytes)
            try write(bytes, hash: hash, in: store)
            keys.append(try #require(BlobKey(hex: Array(hash.utf8))))
        }
        return (store, keys)
    }

    static func write(_ bytes: Data, hash: String, in store: FileBlobStore) throws {
        let path = URL(fileURLWithPath: store.path(for: hash))
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: path)
    }

    @Test("small blobs are held in memory, larger ones as open descriptors, with their answers' heads")
    func kinds() throws {
        let (store, keys) = try Self.store(sizes: [100, 70_000])
        defer { try? FileManager.default.removeItem(at: store.root) }
        let cache = BlobCache(store: store)
        let small = try #require(cache.blob(keys[0], now: 1000))
        let large = try #require(cache.blob(keys[1], now: 1000))
        guard case .bytes(let bytes) = small.body else { Issue.record("small blob not in memory"); return }
        #expect(bytes.readableBytes == 100)
        #expect(large.holdsDescriptor)
        #expect(cache.usage == (2, 100, 1))
        let head = String(buffer: large.wholeHead)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("ETag: \"\(large.hash)\"\r\n"))
        #expect(head.contains("Content-Length: 70000\r\n"))
        #expect(head.contains("Cache-Control: public, max-age=31536000, immutable\r\n"))
        #expect(String(buffer: large.notModifiedHead).hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
        #expect(!String(buffer: large.notModifiedHead).contains("Content-Length"))
        #expect(cache.blob(keys[0], now: 1000) === small)
    }

    @Test("an entry is read again after the revalidation interval, so a deleted blob stops being served")
    func revalidation() throws {
        let (store, keys) = try Self.store(sizes: [100, 70_000])
        defer { try? FileManager.default.removeItem(at: store.root) }
        var limits = BlobCache.Limits()
        limits.revalidationInterval = 5
        let cache = BlobCache(store: store, limits: limits)
        let first = try #require(cache.blob(keys[0], now: 1000))
        _ = try #require(cache.blob(keys[1], now: 1000))
        for key in keys { try FileManager.default.removeItem(atPath: store.path(for: key.hex)) }
        #expect(cache.blob(keys[0], now: 1004) === first)
        #expect(cache.blob(keys[1], now: 1004) != nil)
        #expect(cache.blob(keys[0], now: 1005) == nil)
        #expect(cache.blob(keys[1], now: 1005) == nil)
        #expect(cache.usage == (0, 0, 0))
        // A clock that steps back does not keep an entry alive either.
        try Self.write(Data((0..<100).map { UInt8(truncatingIfNeeded: $0) }), hash: keys[0].hex, in: store)
        let again = try #require(cache.blob(keys[0], now: 2000))
        #expect(again !== first)
        #expect(cache.blob(keys[0], now: 1999) !== again)
    }

    @Test("entries, memory and descriptors stay within their limits; the oldest entries leave first")
    func limits() throws {
        let (store, keys) = try Self.store(sizes: [1000, 1000, 1000, 70_000, 70_000, 70_000])
        defer { try? FileManager.default.removeItem(at: store.root) }
        var limits = BlobCache.Limits()
        limits.maximumEntries = 4
        limits.maximumBytes = 2000
        limits.maximumDescriptors = 2
        let cache = BlobCache(store: store, limits: limits)
        let oldest = try #require(cache.blob(keys[0], now: 0))
        for key in keys[1...] { _ = try #require(cache.blob(key, now: 0)) }
        let usage = cache.usage
        #expect(usage.entries <= 4 && usage.bytes <= 2000 && usage.descriptors <= 2)
        #expect(usage.descriptors == 2)
        #expect(cache.blob(keys[0], now: 0) !== oldest)
        // A descriptor whose entry has left stays open while something still holds the blob.
        let held = try #require(cache.blob(keys[3], now: 0))
        for key in keys[4...] { _ = cache.blob(key, now: 0) }
        _ = cache.blob(keys[4], now: 0)
        guard case .file(let handle) = held.body else { Issue.record("not a descriptor"); return }
        var buffer = ByteBuffer()
        try handle.withUnsafeFileDescriptor { descriptor in
            try FileBlobStore.read(descriptor, offset: 0, count: 10, into: &buffer)
        }
        #expect(buffer.readableBytes == 10)
    }

    @Test("many revalidations of a few blobs keep the bookkeeping bounded")
    func churn() throws {
        let (store, keys) = try Self.store(sizes: [10, 20])
        defer { try? FileManager.default.removeItem(at: store.root) }
        let cache = BlobCache(store: store)
        for second in 0..<1000 {
            for key in keys { _ = try #require(cache.blob(key, now: second)) }
        }
        #expect(cache.usage == (2, 30, 0))
    }
}
