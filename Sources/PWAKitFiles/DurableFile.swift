public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file writes: after a crash or power loss at any instant a file replaced here holds
/// either its old bytes or its new ones, never a mix or nothing.
public enum DurableFile {
    /// Writes `bytes` to a unique temporary file beside `path`, syncs it, renames it over `path`
    /// and syncs the directory; on failure `path` is left as it was.
    public static func replace(_ path: String, with bytes: some Collection<UInt8>, permissions: UInt32 = 0o644)
        throws(FileSystemError)
    {
        let temporary = temporaryName(beside: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw failure("open", temporary) }
        let bytes = Array(bytes)
        guard writeAll(fd, bytes), fsync(fd) == 0 else {
            let error = failure("write", temporary)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename", path)
            unlink(temporary)
            throw error
        }
        try syncDirectory(of: path)
    }

    /// As ``replace(_:with:permissions:)``, and returns the descriptor the bytes were written through,
    /// open for appending (an append-only log goes on writing through it: reopening after the rename
    /// could fail and leave the log appending to nothing). The caller closes it.
    public static func replaceKeepingOpen(_ path: String, with bytes: [UInt8], permissions: UInt32 = 0o644)
        throws(FileSystemError) -> Int32
    {
        let temporary = temporaryName(beside: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw failure("open", temporary) }
        guard writeAll(fd, bytes), fsync(fd) == 0, rename(temporary, path) == 0 else {
            // NB: the cause is read before the clean-up can change errno.
            let error = failure("replace", path)
            close(fd)
            unlink(temporary)
            throw error
        }
        do {
            try syncDirectory(of: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Creates `path` holding `bytes` unless it exists: the bytes are written and synced under a
    /// temporary name, then linked to `path`, so no reader ever sees a partial file and of two
    /// processes creating it at once exactly one wins. Whether this call created it.
    public static func createExclusively(_ path: String, with bytes: [UInt8], permissions: UInt32 = 0o600)
        throws(FileSystemError) -> Bool
    {
        let temporary = temporaryName(beside: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw failure("open", temporary) }
        defer { unlink(temporary) }
        guard writeAll(fd, bytes), fsync(fd) == 0 else {
            let error = failure("write", temporary)
            close(fd)
            throw error
        }
        close(fd)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw failure("link", path)
        }
        try syncDirectory(of: path)
        return true
    }

    static func temporaryName(beside path: String) -> String {
        "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Renames a file that is already written and synced onto `path`, then syncs the directory.
    public static func move(_ source: String, to path: String) throws(FileSystemError) {
        guard rename(source, path) == 0 else { throw failure("rename", path) }
        try syncDirectory(of: path)
    }

    /// The bytes of the file at `path`, or nil when there is none; any other failure to read
    /// throws (an unreadable file is never taken for a missing one).
    public static func contents(of path: String) throws(FileSystemError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(fd) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// Syncs the directory that holds `path`, so a rename or a new name in it survives a crash.
    public static func syncDirectory(of path: String) throws(FileSystemError) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else { throw failure("fsync", directory) }
    }

    /// Creates a directory and its parents with `permissions`; an existing one is fine.
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, mode_t(permissions)) != 0, errno != EEXIST { throw failure("mkdir", built) }
        }
    }

    /// Writes all of `bytes`, retrying short writes and `EINTR`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// The error for `operation` on `path` failing now, with the current `errno`.
    public static func failure(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(.ioFailed, operation: operation, path: path, errno: errno)
    }
}
