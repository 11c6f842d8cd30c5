import Crypto
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that pipelines blob requests and never reads the answers, against the real binary: the
/// server stops reading it, so its memory stays bounded, and other clients are still answered.
@Suite(.serialized) struct PipeliningMemoryTests {
    /// The resident set of a process, in bytes (`VmRSS` of `/proc/<pid>/status`).
    static func residentBytes(_ pid: Int32) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    @Test("never reading 8 s of pipelined blob requests keeps the server's memory bounded")
    func neverReadingClient() async throws {
        #if canImport(Glibc)
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-pipelining-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let keyPath = work.appendingPathComponent("key.json").path
            let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
            let publicKey = try #require(
                ((try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8))) as? [String: Any])?["publicKey"] as? String
            )
            let site = work.appendingPathComponent("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            let blob = Data((0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try blob.write(to: site.appendingPathComponent("index.html"))
            try Data(
                #"{"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"}],"apps":[{"id":"demo","name":"Demo","publisherKeys":["\#(publicKey)"]}]}"#
                    .utf8
            ).write(to: work.appendingPathComponent("seed.json"))
            let server = try await ServerProcess.start([
                "--data-dir", work.appendingPathComponent("data").path, "--seed", work.appendingPathComponent("seed.json").path,
            ])
            let release = work.appendingPathComponent("release.json").path
            _ = try await PWAKitBinary.run([
                "bundle", site.path, "--app-id", "demo", "--version", "1.0.0", "--key", keyPath, "--output", release,
            ])
            let published = try await PWAKitBinary.run(
                [
                    "publish", site.path, "--release", release, "--server", server.baseURL.absoluteString, "--email",
                    "admin@example.com",
                ], environment: ["PWAKIT_PASSWORD": "admin-password"])
            #expect(published.status == 0, "\(published.stderr)")
            let hash = SHA256.hash(data: blob).map { String(format: "%02x", $0) }.joined()
            let port = UInt16(server.baseURL.port ?? 0)
            let before = Self.residentBytes(server.process.processIdentifier)

            // The attacker: one connection, requests written as fast as the socket takes them, nothing read.
            let request = Array("GET /v1/blobs/\(hash) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let batch = Array(repeating: request, count: 256).flatMap { $0 }
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            #expect(connected == 0)
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let deadline = Date().addingTimeInterval(8)
            var sentRequests = 0
            var peak = before
            while Date() < deadline {
                let sent = batch.withUnsafeBytes { send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 { sentRequests += sent / request.count }
                peak = max(peak, Self.residentBytes(server.process.processIdentifier))
            }
            // Another client is still answered meanwhile.
            let (status, _) = try await HTTPProbe.call("GET", server.baseURL.appendingPathComponent("v1/blobs/\(hash)"))
            #expect(status == 200)
            close(socketFD)
            print(
                "pipelining: \(sentRequests) requests sent unread; RSS \(before / 1_048_576) MB before, peak \(peak / 1_048_576) MB"
            )
            // NB: an unreadable /proc would read as 0 before and after, and pass whatever the server did.
            #expect(before > 0, "the server's resident set could not be read")
            // NB: and the attacker really pushed: more than a megabyte of requests the server never answered.
            #expect(sentRequests * request.count > 1_048_576, "only \(sentRequests) requests were sent")
            #expect(peak - before < 150 * 1_048_576, "the server grew by \((peak - before) / 1_048_576) MB")
            await server.stop()
        #endif
    }
}
