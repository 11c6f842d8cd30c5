#if canImport(Glibc)
    import Foundation
    import Glibc
    import Synchronization

    /// One blocking TCP connection to a live test server on loopback, speaking raw HTTP/1.1, so a test
    /// controls exactly which bytes go out and sees exactly which come back.
    final class RawHTTPConnection: Sendable {
        private let socket: CInt
        /// Bytes received but not yet consumed.
        private let received = Mutex<[UInt8]>([])

        /// Connects to `127.0.0.1:port`; `receiveBuffer` fixes the socket's receive buffer (no autotuning).
        init(port: Int, receiveBuffer: Int? = nil) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw HarnessError("socket failed") }
            if var size = receiveBuffer.map(CInt.init) {
                setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(socket)
                throw HarnessError("connect failed")
            }
        }

        deinit { close(socket) }

        // NB: every call blocks on a thread of its own: a blocked thread of Swift concurrency's small pool
        // could starve the in-process server that is to answer.

        func send(_ text: String) async throws { try await onOwnThread { try self.sendNow(text) } }

        /// Reads one response head; its body, if any, stays unread.
        func readHead() async throws -> RawResponse { try await onOwnThread { try self.readHeadNow() } }

        /// Reads one whole response; the body's length comes from `Content-Length` unless `bodiless`
        /// (the answer to a HEAD) or the status has none (304).
        func readResponse(bodiless: Bool = false) async throws -> RawResponse {
            try await onOwnThread { try self.readResponseNow(bodiless: bodiless) }
        }

        /// Everything until the server closes the connection.
        func readToEnd() async throws -> [UInt8] { try await onOwnThread { try self.readToEndNow() } }

        private func sendNow(_ text: String) throws {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw HarnessError("send failed") }
                sent += count
            }
        }

        /// Reads more bytes; `false` at the end of the stream.
        private func fill() throws -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw HarnessError("recv failed: errno \(errno)") }
            received.withLock { $0 += chunk[0..<count] }
            return count > 0
        }

        private func readHeadNow() throws -> RawResponse {
            while true {
                let head: [UInt8]? = received.withLock { bytes in
                    guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<($0 + 4)] == [13, 10, 13, 10] })
                    else { return nil }
                    defer { bytes.removeFirst(end + 4) }
                    return Array(bytes[..<end])
                }
                if let head { return try RawResponse(head: String(decoding: head, as: UTF8.self)) }
                guard try fill() else { throw HarnessError("connection closed before a response head") }
            }
        }

        private func readResponseNow(bodiless: Bool) throws -> RawResponse {
            var response = try readHeadNow()
            let length = bodiless || response.status == 304 ? 0 : Int(response.header("content-length") ?? "0") ?? 0
            while received.withLock({ $0.count }) < length {
                guard try fill() else { throw HarnessError("connection closed inside a body") }
            }
            response.body = received.withLock { bytes in
                defer { bytes.removeFirst(length) }
                return Array(bytes[..<length])
            }
            return response
        }

        private func readToEndNow() throws -> [UInt8] {
            while try fill() {}
            return received.withLock { bytes in
                defer { bytes.removeAll() }
                return bytes
            }
        }
    }

    /// A response read by ``RawHTTPConnection``.
    struct RawResponse: Sendable {
        var status: Int
        /// Header lines with lowercased names, in the order received.
        var headers: [String]
        var body: [UInt8] = []

        init(head: String) throws {
            let lines = head.components(separatedBy: "\r\n")
            let statusParts = lines[0].split(separator: " ")
            guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
                throw HarnessError("not a status line: \(lines[0])")
            }
            self.status = status
            headers = lines.dropFirst().map { line in
                guard let colon = line.firstIndex(of: ":") else { return line }
                return line[..<colon].lowercased() + ":" + line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }

        func header(_ name: String) -> String? {
            headers.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
        }
    }

    /// Runs blocking work on a thread of its own, off Swift concurrency's pool.
    func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
#endif
