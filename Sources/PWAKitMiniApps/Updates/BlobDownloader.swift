import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fetches one file of a release into the store: in ranges of ``chunkSize`` bytes appended to a
/// partial file, so an interrupted download (lost connection, `kill -9`) resumes from what it
/// kept, and verified against its hash before it gets its name in the store.
struct BlobDownloader: Sendable {
    let client: APIClient
    let store: BundleStore
    let chunkSize: Int

    /// Downloads `file` unless the store has it; `progress` gets each chunk's byte count.
    func fetch(_ file: ManifestFile, progress: @Sendable (Int) -> Void) async throws {
        if store.hasBlob(file.sha256, size: file.size) { return }
        let partial = store.partialPath(file.sha256)
        // NB: another process (or install) sharing the store may be fetching the same file.
        let lock = try await PartialDownloadLock.acquire(partial)
        defer { lock.release() }
        if store.hasBlob(file.sha256, size: file.size) {
            if BundleStore.fileSize(partial) == 0 { unlink(partial) }
            return
        }
        var offset = BundleStore.fileSize(partial) ?? 0
        if offset > file.size {
            unlink(partial)
            offset = 0
        }
        if offset > 0 { progress(offset) }
        // NB: opening the lock created the partial file, so an empty file needs no request.
        while offset < file.size {
            try Task.checkCancellation()
            let end = min(offset + chunkSize, file.size)
            let response = try await client.blob(file.sha256, range: offset..<end)
            switch response.status {
            case 206:
                guard let start = Self.contentRangeStart(response.header("Content-Range")), start == offset,
                    !response.body.isEmpty, offset + response.body.count <= file.size
                else {
                    throw MiniAppError(
                        .hashMismatch, "the server sent a range of \(file.path) that was not asked for", field: "sha256")
                }
                try append(response.body, to: partial, truncating: false)
                offset += response.body.count
                progress(response.body.count)
            case 200:
                guard response.body.count == file.size else {
                    unlink(partial)
                    throw MiniAppError(
                        .hashMismatch,
                        "\(file.path) is \(response.body.count) bytes on the server, the manifest says \(file.size)",
                        field: "size")
                }
                try append(response.body, to: partial, truncating: true)
                progress(file.size - offset)
                offset = file.size
            default:
                throw APIClientError(
                    .httpStatus, "fetching \(file.path) answered HTTP \(response.status)", status: response.status)
            }
        }
        try store.ingestPartial(file.sha256, size: file.size)
    }

    private func append(_ bytes: Data, to path: String, truncating: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : O_APPEND), 0o600)
        guard fd >= 0 else { throw MiniAppError(.storageFailed, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard DurableFile.writeAll(fd, Array(bytes)) else {
            throw MiniAppError(.storageFailed, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The first byte of `Content-Range: bytes START-END/SIZE`.
    static func contentRangeStart(_ value: String?) -> Int? {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        return value.dropFirst(6).split(separator: "-").first.flatMap { Int($0) }
    }
}
