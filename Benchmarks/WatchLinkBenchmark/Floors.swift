import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The raw floors: a socket echo between the same two processes, and append+fdatasync loops.
enum Floors {
    /// Echoes length-prefixed frames on a Unix socket until the peer closes it.
    static func serveEcho(path: String) {
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        listen(listener, 4)
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                Thread.detachNewThread {
                    var header = [UInt8](repeating: 0, count: 4)
                    while readFully(fd, &header) {
                        let n = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                        var body = [UInt8](repeating: 0, count: n)
                        guard readFully(fd, &body), writeFully(fd, header + body) else { break }
                    }
                    close(fd)
                }
            }
        }
    }

    /// A connection to the echo server, kept open so its blocks can alternate with WatchLink's.
    final class EchoClient {
        let fd: Int32
        let message: [UInt8]

        /// Connects to the echo socket at `path`, retrying while the server starts.
        init?(path: String, frame: [UInt8]) {
            var fd: Int32 = -1
            for _ in 0..<500 {
                fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { raw in
                    for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
                }
                let ok = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
                if ok == 0 { break }
                close(fd)
                fd = -1
                usleep(10_000)
            }
            guard fd >= 0 else { return nil }
            self.fd = fd
            let n = UInt32(frame.count)
            message = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + frame
        }

        deinit { close(fd) }

        /// Round-trips the frame `count` times, adding each latency to `samples`; returns the time taken.
        func run(_ count: Int, into samples: inout Samples) -> Duration {
            var reply = [UInt8](repeating: 0, count: message.count)
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<count {
                let t = clock.now
                guard writeFully(fd, message), readFully(fd, &reply) else { break }
                samples.add(t.duration(to: clock.now))
            }
            return start.duration(to: clock.now)
        }

        /// Pipelines `count` frames: one thread writes them back to back while this one reads the
        /// echoes; returns the time taken.
        func runPipelined(_ count: Int) -> Duration {
            let fd = self.fd
            let message = self.message
            let clock = ContinuousClock()
            let start = clock.now
            let writer = Thread {
                var batch: [UInt8] = []
                for _ in 0..<64 { batch += message }
                var sent = 0
                while sent < count {
                    let n = min(64, count - sent)
                    guard Floors.writeFully(fd, n == 64 ? batch : Array(batch.prefix(n * message.count))) else { return }
                    sent += n
                }
            }
            writer.start()
            var chunk = [UInt8](repeating: 0, count: message.count * 64)
            var received = 0
            while received < count {
                let n = min(64, count - received)
                if n < 64 { chunk = [UInt8](repeating: 0, count: n * message.count) }
                guard Floors.readFully(fd, &chunk) else { break }
                received += n
            }
            return start.duration(to: clock.now)
        }
    }

    /// Appends `count` records of `size` bytes, calling fdatasync once per `batch` records; records/s.
    static func appendSync(directory: String, size: Int, count: Int, batch: Int, latency: SyncLatency) -> Double {
        let path = directory + "/floor-\(batch).log"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer {
            close(fd)
            unlink(path)
        }
        let record = [UInt8](repeating: 0x61, count: size)
        let clock = ContinuousClock()
        let start = clock.now
        var written = 0
        while written < count {
            var chunk: [UInt8] = []
            for _ in 0..<min(batch, count - written) { chunk += record }
            _ = GroupCommitFloor.writeAll(fd, chunk, at: written * size)
            fdatasync(fd)
            latency.pause()
            written += min(batch, count - written)
        }
        return rate(count, start.duration(to: clock.now))
    }

    static func readFully(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
