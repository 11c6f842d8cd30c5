import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small POSIX helpers for Unix-domain stream sockets and crash-safe files.
enum SocketIO {
    /// Opens a listening socket at `path`, replacing a stale socket file.
    static func listen(path: String) throws(WatchLinkError) -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw failure("socket", path) }
        var address = try makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else {
            close(fd)
            throw failure("bind", path)
        }
        return fd
    }

    /// Connects to the socket at `path`; `nil` if nobody listens yet.
    static func connect(path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, var address = try? makeAddress(path) else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            close(fd)
            return nil
        }
        return fd
    }

    static func makeAddress(_ path: String) throws(WatchLinkError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw WatchLinkError(
                .invalidArgument, "socket path longer than \(capacity - 1) bytes", details: ["field": "socketPath"])
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
            raw[bytes.count] = 0
        }
        return address
    }

    /// Whether `fd` has bytes to read now.
    static func hasInput(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// Makes a send on `fd` that waits longer than `timeout` fail (`EAGAIN`) rather than block.
    static func setSendTimeout(_ fd: Int32, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes every byte (no SIGPIPE); `false` on failure, including a send that timed out.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Writes what `fd` takes now without waiting (no SIGPIPE): the number of bytes written, `0`
    /// when the socket is full, `nil` on failure.
    static func writeAvailable(_ fd: Int32, _ bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return offset }
                return nil
            }
            offset += n
        }
        return offset
    }

    /// Writes `data` to `path` crash-safely: temporary file, `fsync`, `rename`, directory `fsync`.
    ///
    /// - Throws: `storage_failed` naming the path.
    static func writeAtomically(_ data: Data, to path: String) throws(WatchLinkError) {
        close(try FileStore.replaceFile(at: path, with: [UInt8](data)))
    }

    static func failure(_ operation: String, _ path: String) -> WatchLinkError {
        WatchLinkError(.transportFailed, "\(operation) failed: \(String(cString: strerror(errno)))", details: ["path": path])
    }
}
