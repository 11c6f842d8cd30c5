import MetricsTestKit
import Synchronization
import Testing

@testable import PWAKitCore

/// Metric dimensions come only from registered names: a page that sends made-up module or
/// action names must not create a new time series per name.
@Suite struct TelemetryCardinalityTests {
    @Test func namesAPageMakesUpAreRecordedAsADash() async throws {
        let metrics = TestMetrics()
        let records = Mutex<[BridgeCallRecord]>([])
        let telemetry = BridgeTelemetry(
            metricsFactory: metrics, observer: { record in records.withLock { $0.append(record) } })
        let dispatcher = try makeDispatcher(telemetry: telemetry)
        let page = await TestPage.open(dispatcher)
        let narrow = await TestPage.open(dispatcher, grant: .only(["echo.echo"]))
        let denied = await TestPage.open(dispatcher, origin: "https://evil.example", grant: .denied)
        for index in 0..<20 {
            _ = await page.send(#"{"id":"a\#(index)","module":"made\#(index)","action":"up\#(index)"}"#)
            _ = await page.send(#"{"id":"b\#(index)","module":"echo","action":"up\#(index)"}"#)
            _ = await narrow.send(#"{"id":"c\#(index)","module":"made\#(index)","action":"up\#(index)"}"#)
            _ = await denied.send(#"{"id":"d\#(index)","module":"made\#(index)","action":"up\#(index)"}"#)
        }
        _ = await narrow.send(#"{"id":"e","module":"echo","action":"fail"}"#)

        let values = Set(metrics.counters(label: "pwakit_bridge_calls_total").flatMap { $0.dimensions.map(\.1) })
        #expect(!values.contains { $0.hasPrefix("made") || $0.hasPrefix("up") })
        let series = metrics.counters(label: "pwakit_bridge_calls_total").map { $0.dimensions.map { "\($0.0)=\($0.1)" } }
        #expect(
            Set(series.map { $0.joined(separator: ",") }) == [
                "module=-,action=-,outcome=unknown_module",
                "module=echo,action=-,outcome=unknown_action",
                "module=-,action=-,outcome=permission_denied",
                "module=-,action=-,outcome=origin_not_allowed",
                // A registered module and action keep their names even when the call is refused.
                "module=echo,action=fail,outcome=permission_denied",
            ])
        #expect(metrics.recorders.allSatisfy { recorder in !recorder.dimensions.contains { $0.1.hasPrefix("made") } })
        #expect(records.withLock { $0.count } == 81)
    }
}
