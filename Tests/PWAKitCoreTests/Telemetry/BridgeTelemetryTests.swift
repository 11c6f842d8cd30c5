import InMemoryLogging
import Logging
import MetricsTestKit
import Testing

@testable import PWAKitCore

@Suite struct BridgeTelemetryTests {
    @Test func callsReachSwiftLogAndSwiftMetrics() async throws {
        let metrics = TestMetrics()
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .debug
        let telemetry = BridgeTelemetry(logger: logger, metricsFactory: metrics)
        let page = await TestPage.open(try makeDispatcher(telemetry: telemetry))
        _ = await page.send(#"{"id":"1","module":"echo","action":"echo","payload":[1,2,3]}"#)
        _ = await page.send(#"{"id":"2","module":"echo","action":"echo"}"#)
        _ = await page.send(#"{"id":"3","module":"echo","action":"fail"}"#)

        let ok = [("module", "echo"), ("action", "echo"), ("outcome", "ok")]
        #expect(try metrics.expectCounter("pwakit_bridge_calls_total", ok).totalValue == 2)
        let failed = [("module", "echo"), ("action", "fail"), ("outcome", "echo.failed")]
        #expect(try metrics.expectCounter("pwakit_bridge_calls_total", failed).totalValue == 1)
        #expect(try metrics.expectTimer("pwakit_bridge_call_duration", ok).values.count == 2)
        let sizes = try metrics.expectRecorder("pwakit_bridge_request_bytes", [("module", "echo"), ("action", "echo")])
        #expect(sizes.values.first == Double(#"{"id":"1","module":"echo","action":"echo","payload":[1,2,3]}"#.utf8.count))

        let entries = handler.entries
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0.level == .debug && $0.message == "bridge call" })
        #expect(entries[2].metadata["outcome"] == "echo.failed")
        #expect(entries[0].metadata["response_bytes"] == "\(#"{"id":"1","success":true,"data":[1,2,3]}"#.utf8.count)")
    }

    @Test func callsOutsideTheGrantAreLoggedAtNotice() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .info
        let dispatcher = try makeDispatcher(telemetry: BridgeTelemetry(logger: logger))
        let page = await TestPage.open(dispatcher, origin: "https://shop.example.com", grant: .only(["echo.echo"]))
        _ = await page.send(#"{"id":"1","module":"echo","action":"echo"}"#)
        _ = await page.send(#"{"id":"2","module":"echo","action":"fail"}"#)
        let denied = await TestPage.open(dispatcher, origin: "https://evil.example", grant: .denied)
        _ = await denied.send(#"{"id":"3","module":"echo","action":"echo"}"#)
        let entries = handler.entries
        #expect(entries.map(\.message) == ["bridge call refused", "bridge call refused"])
        #expect(entries.allSatisfy { $0.level == .notice })
        #expect(entries[0].metadata["origin"] == "https://shop.example.com")
        #expect(entries[0].metadata["action"] == "fail")
        #expect(entries[0].metadata["code"] == "permission_denied")
        #expect(entries[1].metadata["code"] == "origin_not_allowed")
    }

    @Test func defaultTelemetryIsQuiet() {
        // The default logger logs at info, so per-call debug lines cost nothing.
        #expect(BridgeTelemetry().logger.logLevel == .info)
    }
}
