package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileTransfer {
    /// Checks the arguments of a `transferFile` call and opens the file for reading.
    ///
    /// - Returns: the descriptor (its size as the file has it now) and an open file descriptor;
    ///   the caller closes it.
    /// - Throws: `invalid_argument` naming `metadata` or `fileName`, `file_unreadable` naming
    ///   `file` for a missing, non-regular or unreadable file, `payload_too_large` naming `file`.
    static func openSource(_ url: URL, metadata: [String: String], id: UUID) throws(WatchLinkError) -> (FileTransfer, Int32) {
        try validateMetadata(metadata)
        guard url.isFileURL else {
            throw WatchLinkError(.invalidArgument, "\(url) is not a file URL", details: ["field": "file"])
        }
        let path = url.path
        try validateName(url.lastPathComponent)
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw unreadable(path, "does not exist or cannot be inspected")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw unreadable(path, "is not a regular file") }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        try SessionLimits.checkFile(size)
        let fd = systemOpen(path, O_RDONLY)
        guard fd >= 0 else { throw unreadable(path, "cannot be opened: \(String(cString: strerror(errno)))") }
        return (FileTransfer(id: id, fileName: url.lastPathComponent, metadata: metadata, size: size), fd)
    }

    /// Reads the whole file of a `transferFile` call into memory (for the in-process transports).
    package static func readAll(_ url: URL, metadata: [String: String], id: UUID) throws(WatchLinkError) -> (FileTransfer, Data) {
        var (transfer, fd) = try openSource(url, metadata: metadata, id: id)
        defer { close(fd) }
        var data = Data()
        try forEachChunk(fd, path: url.path) { (chunk) throws(WatchLinkError) in data.append(contentsOf: chunk) }
        transfer.size = Int64(data.count)
        return (transfer, data)
    }

    /// Copies the file of a `transferFile` call to `destination` crash-safely (temporary file,
    /// `fsync`, `rename`), so the transfer no longer depends on the caller's file.
    static func copy(_ url: URL, metadata: [String: String], id: UUID, to destination: String) throws(WatchLinkError)
        -> FileTransfer
    {
        var (transfer, source) = try openSource(url, metadata: metadata, id: id)
        defer { close(source) }
        transfer.size = try copyContents(of: source, path: url.path, to: destination)
        return transfer
    }

    /// Copies the open file `source` to `destination`: temporary file, `fsync`, `rename`, directory `fsync`.
    ///
    /// - Returns: the number of bytes copied.
    static func copyContents(of source: Int32, path: String, to destination: String) throws(WatchLinkError) -> Int64 {
        let temporary = destination + ".tmp"
        let target = systemOpen(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard target >= 0 else { throw FileStore.failure("open", temporary) }
        var copied: Int64 = 0
        do throws(WatchLinkError) {
            try forEachChunk(source, path: path) { (chunk) throws(WatchLinkError) in
                guard FileStore.writeAll(target, chunk) else { throw FileStore.failure("write", temporary) }
                copied += Int64(chunk.count)
            }
            guard fsync(target) == 0 else { throw FileStore.failure("fsync", temporary) }
        } catch {
            close(target)
            unlink(temporary)
            throw error
        }
        close(target)
        guard rename(temporary, destination) == 0 else { throw FileStore.failure("rename", destination) }
        FileStore.syncDirectory(of: destination)
        return copied
    }

    /// Reads `fd` to its end in 64 KiB chunks, refusing to go past ``SessionLimits/file``.
    static func forEachChunk(_ fd: Int32, path: String, _ body: ([UInt8]) throws(WatchLinkError) -> Void)
        throws(WatchLinkError)
    {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw unreadable(path, "cannot be read: \(String(cString: strerror(errno)))") }
            if n == 0 { return }
            total += Int64(n)
            // NB: the file may have grown since it was measured.
            try SessionLimits.checkFile(total)
            try body(Array(buffer[0..<n]))
        }
    }

    static func unreadable(_ path: String, _ why: String) -> WatchLinkError {
        WatchLinkError(.fileUnreadable, "\(path) \(why)", details: ["field": "file", "path": path])
    }
}

/// `open(2)`, outside any type that declares its own `open`.
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// `read(2)`, outside any type that declares its own `read`.
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

extension ReceivedFile {
    /// Writes `data` as the file of `transfer` under `scratch`, hands it to `receive`, and deletes it
    /// when `receive` returns, as WatchConnectivity does with a received file.
    ///
    /// - Throws: `storage_failed` if the file cannot be written, or what `receive` throws.
    package static func handOver(
        _ data: Data, of transfer: FileTransfer, under scratch: URL, to receive: (ReceivedFile) throws(WatchLinkError) -> Void
    ) throws(WatchLinkError) {
        let folder = scratch.appendingPathComponent(transfer.id.uuidString)
        let url = folder.appendingPathComponent(transfer.fileName)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            throw WatchLinkError(.storageFailed, "cannot write a received file: \(error)", details: ["path": url.path])
        }
        try receive(ReceivedFile(transfer: transfer, url: url))
    }
}
