import Foundation

@testable import PWAKitServer

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a local SMTP server can be run (CI installs python3-aiosmtpd and sets `PWAKIT_TEST_REQUIRE_SMTP=1`).
let smtpAvailable =
    ProcessInfo.processInfo.environment["PWAKIT_TEST_REQUIRE_SMTP"] == "1"
    || (try? Process.run(URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", "import aiosmtpd"]))
        .map { process in
            process.waitUntilExit()
            return process.terminationStatus == 0
        } ?? false

/// A mailer for a server these tests run, `SMTPMailer(url:caFile:)` with a 120 s timeout instead of 20 s:
/// the deadline runs on the event loop's clock while the conversation waits for one of the test
/// process's two cooperative threads, which the suites beside it can hold for many seconds. A CI run
/// saw two conversations end in "I/O on closed channel", each test 83 s long instead of under one; a
/// starved pool (or a slow name lookup in aiosmtpd, below) is the likely cause, not proven. No test
/// here is about the timeout.
func localMailer(_ url: String, caFile: String? = nil) throws -> SMTPMailer {
    var mailer = try SMTPMailer(url: url, caFile: caFile)
    mailer.timeout = .seconds(120)
    return mailer
}

/// A real SMTP server (Python's aiosmtpd, printing what it receives) on a free loopback port.
///
/// NB: aiosmtpd names itself with `socket.getfqdn()` on every connection, a DNS lookup where the
/// machine's host name is not in /etc/hosts that blocks its only thread for as long as the resolver
/// waits; the server is given `localhost` instead.
final class LocalSMTPServer: Sendable {
    let port: Int
    let process: Process
    let output = LineReader()

    /// `arguments` are aiosmtpd's own (`--tlscert`/`--tlskey` for STARTTLS, `--smtpscert`/`--smtpskey` for TLS from the start).
    init(_ arguments: [String] = []) async throws {
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-u", "-c",
                "import socket, sys; socket.getfqdn = lambda name='': 'localhost'; from aiosmtpd.main import main; main(sys.argv[1:])",
                "-n", "-l", "127.0.0.1:\(port)",
            ] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let output = self.output
        out.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while !(Self.accepts(port)) {
            guard ContinuousClock.now < deadline else { throw TestFailure("aiosmtpd did not start on \(port)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    deinit { process.terminate() }

    /// The body of the next message received, decoded.
    func nextMessageBody() async throws -> String {
        _ = try await output.next(prefix: "---------- MESSAGE FOLLOWS ----------")
        var lines: [String] = []
        while true {
            let line = try await output.next(prefix: "")
            if line.hasPrefix("------------ END MESSAGE") { break }
            lines.append(line)
        }
        let blank = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? lines.count
        let encoded = lines[(min(blank + 1, lines.count))...].joined()
        guard let body = Data(base64Encoded: encoded) else { throw TestFailure("the body is not base64: \(encoded.prefix(80))") }
        return String(decoding: body, as: UTF8.self)
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else { throw TestFailure("no free port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
