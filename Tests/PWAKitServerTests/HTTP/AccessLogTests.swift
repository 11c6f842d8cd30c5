import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PWAKitBundles
import Synchronization
import Testing

@testable import PWAKitServer

/// The access log: one Common Log Format line per answer, from the router and from the blob pipeline.
@Suite("Access log")
struct AccessLogTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var log: AccessLog { AccessLog { line in self.lines.withLock { $0.append(line) } } }
    }

    @Test("Common Log Format; quotes and control characters in the target escaped")
    func format() {
        #expect(
            AccessLog.line(address: "10.0.0.1", method: "GET", target: "/v1/me", status: 200, bytes: 97, at: 1_795_640_591)
                == #"10.0.0.1 - - [25/Nov/2026:21:03:11 +0000] "GET /v1/me HTTP/1.1" 200 97"#)
        #expect(
            AccessLog.line(address: nil, method: "POST", target: "/a\"b\u{1}", status: 401, bytes: nil, at: 0)
                == #"- - - [01/Jan/1970:00:00:00 +0000] "POST /a\x22b\x01 HTTP/1.1" 401 -"#)
    }

    @Test("router answers (errors as their status) and blobs answered in the pipeline are both logged")
    func live() async throws {
        let lines = Lines()
        let harness = try await Harness.make(engine: .sqlite) { $0.accessLog = lines.log }
        try await harness.test(.live, blobCache: BlobCache(store: try FileBlobStore(root: harness.blobRoot))) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            #expect(try await client.send(.get, "/v1/me").status == .unauthorized)
            let bytes = Array("hello access log".utf8)
            let hash = SHA256.hex(of: bytes)
            _ = try await client.sendBytes(
                .put, "/v1/blobs/\(hash)", body: bytes, token: admin, headers: [.contentType: "application/octet-stream"])
            // The first answer may come from the router (the cache loads the blob); the second from the pipeline.
            for _ in 0..<2 { #expect(try await client.send(.get, "/v1/blobs/\(hash)").status == .ok) }
            let logged = lines.all
            #expect(logged.contains { $0.contains(#""POST /v1/auth/login HTTP/1.1" 200 "#) }, "\(logged)")
            #expect(logged.contains { $0.contains(#""GET /v1/me HTTP/1.1" 401 "#) }, "\(logged)")
            let blobLines = logged.filter { $0.contains(#""GET /v1/blobs/\#(hash) HTTP/1.1" 200 16"#) }
            #expect(blobLines.count == 2, "\(logged)")
            #expect(logged.allSatisfy { $0.hasPrefix("127.0.0.1 - - [") }, "\(logged)")
        }
    }
}
