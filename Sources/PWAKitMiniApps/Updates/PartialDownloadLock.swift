import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One downloader at a time per file, across the processes that share a store: an exclusive
/// `flock` on the partial file itself, released on ``release()`` or when the holder dies.
///
/// NB: the lock is on the partial file's inode, which ingestion renames into the store, so a
/// waiter that gets the lock afterwards finds the file stored and stops.
final class PartialDownloadLock: Sendable {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Waits (polling every `interval`, cancellable) until this caller holds the partial file of `path`.
    static func acquire(_ path: String, interval: Duration = .milliseconds(25)) async throws -> PartialDownloadLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw MiniAppError(.storageFailed, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw MiniAppError(.storageFailed, "cannot lock \(path): \(reason)")
            }
            do { try await Task.sleep(for: interval) } catch {
                close(fd)
                throw error
            }
        }
        return PartialDownloadLock(fd: fd)
    }

    /// Releases the lock.
    func release() { close(fd) }
}
