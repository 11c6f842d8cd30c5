import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a file (`flock`), shared by every process that opens the same path: what
/// keeps two host processes from changing one store at once. The kernel drops it when the
/// holder exits, also by `kill -9`.
public final class FileLock: Sendable {
    /// The lock file.
    public let path: String
    private let fd: Int32
    // NB: flock excludes other open file descriptions only; threads of this process share one.
    private let threads = NSLock()

    /// Opens (creating) the lock file.
    public init(path: String) throws(FileSystemError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFile.failure("open", path) }
    }

    deinit { close(fd) }

    /// Takes the lock exclusively if no other open file description holds it, without waiting;
    /// whether it was taken. Give it back with ``unlock()`` (or by closing: the lock goes with
    /// this object and with the process).
    public func tryLock() throws(FileSystemError) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            guard errno == EINTR else { throw DurableFile.failure("flock", path) }
        }
        return true
    }

    /// Gives back a lock taken with ``tryLock()``.
    public func unlock() { flock(fd, LOCK_UN) }

    /// Runs `body` holding the lock exclusively, waiting for other holders.
    public func withExclusiveLock<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        threads.lock()
        defer { threads.unlock() }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw DurableFile.failure("flock", path) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
