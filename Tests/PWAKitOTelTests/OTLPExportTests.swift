#if OTel
    import Foundation
    import Hummingbird
    import Logging
    import OTel
    import PWAKitAPI
    import PWAKitOTel
    import PWAKitObservability
    import ServiceLifecycle
    import Synchronization
    import Testing

    /// A stand-in OTLP/HTTP collector: keeps every request body it gets, by path.
    final class Collector: Sendable {
        let received = Mutex<[(path: String, contentType: String, body: Data)]>([])

        /// Runs the collector on a free port while `body` runs with its base URL.
        func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
            let router = Router()
            router.post("/v1/traces") { request, _ -> HTTPResponse.Status in
                let bytes = try await request.body.collect(upTo: 8 << 20)
                self.received.withLock {
                    $0.append(("/v1/traces", request.headers[.contentType] ?? "", Data(bytes.readableBytesView)))
                }
                return .ok
            }
            let (ports, port) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "collector"))
            let group = ServiceGroup(services: [app], logger: Logger(label: "collector"))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                guard let bound = await iterator.next() else { return }
                try await body("http://127.0.0.1:\(bound)")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    @Suite("OTLP export through swift-otel")
    struct OTLPExportTests {
        @Test(
            "a telemetry span reaches the collector as OTLP/HTTP JSON with its name, attributes and service",
            arguments: [OTLPExport.Encoding.json, .protobuf])
        func spansReachTheCollector(encoding: OTLPExport.Encoding) async throws {
            let collector = Collector()
            try await collector.run { url in
                let backend = try OTLPExport.tracer(collector: url, serviceName: "pwakit-tests", encoding: encoding)
                let exporter = ServiceGroup(services: [backend.service], logger: Logger(label: "otel"))
                let running = Task { try await exporter.run() }
                let consent = ConsentStore(file: nil, isDebug: false)
                try consent.set(.performance, granted: true)
                let telemetry = Telemetry(sinks: [TracingSink(tracer: backend.tracer)], consent: consent)
                telemetry.startSpan("catalog_load", properties: ["apps": .number(3), "source": .string("cache")]).end()
                // NB: a graceful shutdown flushes the batch, so nothing here waits on a timer.
                await exporter.triggerGracefulShutdown()
                try await running.value
            }
            let requests = collector.received.withLock { $0 }
            #expect(requests.count >= 1)
            let body = try #require(requests.first?.body)
            #expect(body.range(of: Data("catalog_load".utf8)) != nil)
            #expect(body.range(of: Data("pwakit-tests".utf8)) != nil)
            switch encoding {
            case .json:
                #expect(requests.first?.contentType.hasPrefix("application/json") == true)
                let document = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                let resourceSpans = try #require(document["resourceSpans"] as? [[String: Any]])
                let spans = resourceSpans.flatMap { ($0["scopeSpans"] as? [[String: Any]]) ?? [] }
                    .flatMap { ($0["spans"] as? [[String: Any]]) ?? [] }
                let span = try #require(spans.first { $0["name"] as? String == "catalog_load" })
                let keys = (span["attributes"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
                #expect(Set(keys).isSuperset(of: ["apps", "source", "pwakit.category"]))
            case .protobuf:
                #expect(requests.first?.contentType.hasPrefix("application/x-protobuf") == true)
            }
        }

        @Test("the configuration sends traces and metrics under the collector's base URL, logs left alone")
        func configuration() {
            let configuration = OTLPExport.configuration(collector: "http://collector:4318/", serviceName: "notes")
            #expect(configuration.traces.otlpExporter.endpoint == "http://collector:4318/v1/traces")
            #expect(configuration.metrics.otlpExporter.endpoint == "http://collector:4318/v1/metrics")
            #expect(configuration.serviceName == "notes")
            #expect(!configuration.logs.enabled)
        }
    }
#endif
