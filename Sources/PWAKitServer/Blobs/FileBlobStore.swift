import Crypto
public import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore
import NIOPosix
import PWAKitBundles
import PWAKitFiles

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
    /// Ranges up to this size are read with `pread` on the request's own thread; larger ones stream
    /// from the I/O thread pool.
    static let directReadLimit = 2 * 1024 * 1024
    /// Direct reads go in chunks of this size, each sent before the next is read. NB: it stays under
    /// malloc's mmap threshold (128 KiB), so chunk buffers are reused memory rather than fresh pages.
    static let directChunkLength = 64 * 1024

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
    public func size(of hash: String) async throws -> Int? { storedSize(of: hash) }

    /// The size of a stored blob.
    func storedSize(of hash: String) -> Int? {
        guard let (descriptor, size) = openStored(hash) else { return nil }
        close(descriptor)
        return size
    }

    /// A stored blob opened for reading, with its size, in one path lookup; the caller closes the descriptor.
    /// NB: no `stat`: which C module Swift credits `struct stat` to varies between builds, which breaks
    /// member import visibility. The size is the end offset; a one-byte read refuses directories.
    func openStored(_ hash: String) -> (descriptor: CInt, size: Int)? {
        guard ManifestRules.isSHA256Hex(hash) else { return nil }
        let descriptor = open(path(for: hash), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var byte: UInt8 = 0
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0, pread(descriptor, &byte, 1, 0) >= 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(size))
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
            // NB: fsync can take as long as the disk does; it must not hold up the event loop.
            try await NIOThreadPool.singleton.runIfActive {
                try handle.synchronize()
                try handle.close()
            }
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
        // NB: the blob's bytes were synced above; the new name survives a crash once its directory is.
        try DurableFile.syncDirectory(of: destination.path)
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
        let path = path(for: hash)
        guard range.count <= Self.directReadLimit else {
            return try await fileIO.loadFile(path: path, range: range, context: context)
        }
        if range.count <= Self.directChunkLength {
            let descriptor = try Self.openForReading(path)
            defer { close(descriptor) }
            var buffer = ByteBufferAllocator().buffer(capacity: range.count)
            try Self.read(descriptor, offset: range.lowerBound, count: range.count, into: &buffer)
            return ResponseBody(byteBuffer: buffer)
        }
        return ResponseBody(contentLength: range.count) { writer in
            let descriptor = try Self.openForReading(path)
            defer { close(descriptor) }
            // NB: one buffer per response, refilled; once the socket has taken a chunk the buffer is
            // unique again and `clear()` keeps its memory, otherwise copy-on-write gives it new storage.
            var buffer = ByteBufferAllocator().buffer(capacity: Self.directChunkLength)
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let count = min(Self.directChunkLength, range.upperBound + 1 - offset)
                buffer.clear()
                try Self.read(descriptor, offset: offset, count: count, into: &buffer)
                try await writer.write(buffer)
                offset += count
            }
            try await writer.finish(nil)
        }
    }

    static func closeDescriptor(_ descriptor: CInt) { close(descriptor) }

    static func openForReading(_ path: String) throws -> CInt {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BlobStoreError(.notFound) }
        return descriptor
    }

    /// Reads with `pread`. NB: blobs are immutable and these reads are small and come from the page cache,
    /// so a brief blocking read is cheaper than a hop to the I/O thread pool and back.
    static func read(_ descriptor: CInt, offset start: Int, count: Int, into buffer: inout ByteBuffer) throws {
        while buffer.readableBytes < count {
            let remaining = count - buffer.readableBytes
            let offset = off_t(start + buffer.readableBytes)
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: remaining) { pointer in
                max(0, pread(descriptor, pointer.baseAddress, remaining, offset))
            }
            guard read > 0 else { throw BlobStoreError(.notFound) }
        }
    }
}
