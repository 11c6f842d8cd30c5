import Crypto
public import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore
import PWAKitBundles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``BlobStore`` in a directory: `ab/cd/abcd…` by hash, written to `tmp/` first, fsynced, then renamed.
public struct FileBlobStore: BlobStore {
    /// The store's directory.
    public let root: URL
    private let rootPath: String
    private let fileIO = FileIO()
    /// Ranges up to this size (2 MiB: the memory one in-flight response may hold) are read with `pread`
    /// in one go; larger ones stream from the I/O thread pool.
    static let directReadLimit = 2 * 1024 * 1024

    /// Creates the store, creating its directory if needed.
    public init(root: URL) throws {
        self.root = root
        self.rootPath = root.path
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tmp"), withIntermediateDirectories: true)
    }

    /// The path where a blob lives (whether or not it is stored).
    public func path(for hash: String) -> String {
        let bytes = Array(hash.utf8)
        let first = String(decoding: bytes[0..<2], as: UTF8.self)
        let second = String(decoding: bytes[2..<4], as: UTF8.self)
        return "\(rootPath)/\(first)/\(second)/\(hash)"
    }

    /// The size of a stored blob.
    public func size(of hash: String) async throws -> Int? {
        guard ManifestRules.isSHA256Hex(hash) else { return nil }
        var info = stat()
        guard stat(path(for: hash), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Streams, hashes, fsyncs and atomically publishes a blob.
    public func put(hash: String, body: RequestBody, maximumSize: Int) async throws -> Bool {
        guard ManifestRules.isSHA256Hex(hash) else { throw BlobStoreError(.hashMismatch) }
        if try await size(of: hash) != nil {
            for try await _ in body {}
            return false
        }
        let temporary = root.appendingPathComponent("tmp").appendingPathComponent(UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw StorageError(message: "cannot create \(temporary.path)")
        }
        var published = false
        defer { if !published { try? FileManager.default.removeItem(at: temporary) } }
        let handle = try FileHandle(forWritingTo: temporary)
        var hasher = SHA256()
        var written = 0
        do {
            // NB: chunks arrive at most a few KiB at a time; blocking writes of that size are brief.
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= maximumSize else { throw BlobStoreError(.tooLarge) }
                chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                try handle.write(contentsOf: Data(chunk.readableBytesView))
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        guard hasher.finalize().hexString == hash else { throw BlobStoreError(.hashMismatch) }
        let destination = URL(fileURLWithPath: path(for: hash))
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try FileManager.default.moveItem(at: temporary, to: destination)
        } catch {
            // Another upload of the same content won the race; its bytes are identical.
            guard FileManager.default.fileExists(atPath: destination.path) else { throw error }
            return false
        }
        published = true
        return true
    }

    /// Re-hashes a stored blob in 1 MiB reads.
    public func verify(hash: String) async throws -> Bool {
        guard ManifestRules.isSHA256Hex(hash), let handle = FileHandle(forReadingAtPath: path(for: hash)) else { return false }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().hexString == hash
    }

    /// Streams a range of a stored blob from disk.
    public func body(hash: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard ManifestRules.isSHA256Hex(hash) else { throw BlobStoreError(.notFound) }
        if range.count <= Self.directReadLimit {
            return ResponseBody(byteBuffer: try readDirectly(path: path(for: hash), range: range))
        }
        return try await fileIO.loadFile(path: path(for: hash), range: range, context: context)
    }

    /// Reads a small range with `pread`. NB: blobs are immutable and small reads come from the page
    /// cache, so this brief blocking read is cheaper than a hop to the I/O thread pool.
    private func readDirectly(path: String, range: ClosedRange<Int>) throws -> ByteBuffer {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BlobStoreError(.notFound) }
        defer { close(descriptor) }
        var buffer = ByteBufferAllocator().buffer(capacity: range.count)
        while buffer.readableBytes < range.count {
            let remaining = range.count - buffer.readableBytes
            let offset = off_t(range.lowerBound + buffer.readableBytes)
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: remaining) { pointer in
                max(0, pread(descriptor, pointer.baseAddress, remaining, offset))
            }
            guard read > 0 else { throw BlobStoreError(.notFound) }
        }
        return buffer
    }
}
