#if WebKitGTK
    import Foundation
    import Testing

    @Suite("pwakit share")
    struct ShareCommandTests {
        @Test("shares wait in the outbox while no server is given or reachable, then become posts, each page once")
        func outboxToPosts() throws {
            let work = try TemporaryDirectory()
            let outbox = work.url.appendingPathComponent("shares").path
            let offline = try PWAKitBinary.run(["share", "https://example.com/article?utm_source=mail", "--outbox", outbox])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stdout.hasPrefix("queued "))
            let unreachable = try PWAKitBinary.run(
                [
                    "share", "https://example.com/other", "--note", "later", "--outbox", outbox, "--server", "http://127.0.0.1:9",
                    "--email", "ann@example.com",
                ], environment: ["PWAKIT_PASSWORD": "ann-password-1"])
            #expect(unreachable.status == 0, "\(unreachable.stderr)")
            #expect(unreachable.stdout.contains("kept for later"))
            #expect(try PWAKitBinary.run(["share", "--list", "--outbox", outbox]).stdout.split(separator: "\n").count == 2)

            let seed = try work.write(
                "seed.json", #"{"users":[{"email":"ann@example.com","password":"ann-password-1","role":"user"}]}"#)
            let server = try MiniAppEndToEndTests.PlatformServer(directory: work.url, seed: seed)
            defer { server.stop() }
            let send = try PWAKitBinary.run(
                [
                    "share", "https://EXAMPLE.com/article", "--outbox", outbox, "--server", server.url, "--email",
                    "ann@example.com",
                ],
                environment: ["PWAKIT_PASSWORD": "ann-password-1"])
            #expect(send.status == 0, "\(send.stderr)")
            let posted = send.stdout.split(separator: "\n").filter { $0.hasPrefix("posted ") }
            #expect(posted.count == 3, "\(send.stdout)")
            #expect(posted.filter { $0.contains("(new)") }.count == 2)
            #expect(posted.filter { $0.contains("(already shared)") }.count == 1)
            #expect(try PWAKitBinary.run(["share", "--list", "--outbox", outbox]).stdout.isEmpty)

            let bad = try PWAKitBinary.run(["share", "javascript:alert(1)", "--outbox", outbox])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("url"), "\(bad.stderr)")
            let usage = try PWAKitBinary.run(["share", "--outbox", outbox])
            #expect(usage.status == 64)
        }
    }
#endif
