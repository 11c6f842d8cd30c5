#if WebKitGTK
    import Foundation
    import Testing

    /// A start page that does not load ends a scripted run with status 7 and a `loadFailed` line,
    /// instead of a screenshot of an error page and success.
    @Suite struct LoadFailureTests {
        static func events(_ stdout: String) -> [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        @Test func aDirectoryWithoutItsEntryPageFails() throws {
            let site = try TemporaryDirectory()
            try site.write(
                "pwa-config.json",
                #"{"version":1,"app":{"name":"Empty","bundleId":"dev.pwakit.empty","startUrl":"app://empty/index.html"},"origins":{"allowed":["empty"]}}"#
            )
            try site.write("style.css", "body{}")
            let shot = site.url.appendingPathComponent("shot.png").path
            let run = try PWAKitBinary.run(["run", site.url.path, "--screenshot", shot, "--timeout", "30"])
            #expect(run.status == 7, "\(run.stdout) \(run.stderr)")
            let failed = Self.events(run.stdout).first { $0["event"] as? String == "loadFailed" }
            #expect(failed?["status"] as? Int == 404)
            #expect(!FileManager.default.fileExists(atPath: shot), "no screenshot of an error page")
        }

        /// A loopback port nothing listens on (bound, then released).
        static func closedPort() -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
                }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        @Test func anUnreachableStartURLFails() throws {
            let run = try PWAKitBinary.run([
                "run", "http://127.0.0.1:\(Self.closedPort())/", "--screenshot", "/tmp/unused-\(UUID().uuidString).png",
                "--timeout", "30",
            ])
            #expect(run.status == 7, "\(run.stdout) \(run.stderr)")
            let failed = Self.events(run.stdout).first { $0["event"] as? String == "loadFailed" }
            #expect((failed?["message"] as? String)?.isEmpty == false)
        }
    }
#endif
