#if OTel
    import Foundation
    import PWAKitTesting
    import Synchronization
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    @Suite("pwakit server --otlp-endpoint")
    struct ServerExportTests {
        static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        @Test("each request is a span at the collector, flushed when the server stops")
        func requestsAreTraced() async throws {
            let binary = try BuiltBinary.locate("pwakit", override: "PWAKIT_BINARY", packageRoot: Self.packageRoot)
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-otel-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let collector = Collector()
            try await collector.run { url in
                let process = Process()
                process.executableURL = binary.url
                process.arguments = [
                    "server", "--port", "0", "--data-dir", data.path, "--otlp-endpoint", url, "--otlp-encoding", "json",
                ]
                let out = Pipe()
                process.standardOutput = out
                try process.run()
                var text = ""
                while !text.contains("\n") {
                    let chunk = out.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                }
                let line = try #require(text.split(separator: "\n").first.map(String.init))
                let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") })
                let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: "\(address)/v1/health")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                process.terminate()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
            }
            let bodies = collector.received.withLock { $0.map(\.body) }
            let all = bodies.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
            #expect(all.contains("/v1/health"), "\(all.prefix(2000))")
            #expect(all.contains("pwakit-server"))
        }

        @Test("a bad endpoint or encoding is a usage error")
        func badOptions() throws {
            let binary = try BuiltBinary.locate("pwakit", override: "PWAKIT_BINARY", packageRoot: Self.packageRoot)
            let ftp = try binary.run(["server", "--otlp-endpoint", "ftp://collector"])
            #expect(ftp.status == 64)
            #expect(ftp.stderr.contains("--otlp-endpoint must be an http or https URL"))
            let encoding = try binary.run(["server", "--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-encoding", "xml"])
            #expect(encoding.status == 64)
        }
    }
#endif
