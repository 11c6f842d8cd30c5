import CoreMetrics
public import Logging
public import Metrics

/// Where the dispatcher reports each call: swift-log, swift-metrics and an optional observer.
///
/// By default the logger is swift-log's global one (debug level lines, invisible unless a
/// handler enables them) and metrics go to whatever `MetricsSystem` was bootstrapped with —
/// a no-op unless the app chose a backend.
public struct BridgeTelemetry: Sendable {
    /// The logger for per-call lines.
    public var logger: Logger
    /// The metrics backend; `nil` uses the global `MetricsSystem.factory`.
    public var metricsFactory: (any MetricsFactory)?
    /// Called with every record, after logging and metrics.
    public var observer: (@Sendable (BridgeCallRecord) -> Void)?

    /// Creates telemetry.
    public init(
        logger: Logger = Logger(label: "pwakit.bridge"), metricsFactory: (any MetricsFactory)? = nil,
        observer: (@Sendable (BridgeCallRecord) -> Void)? = nil
    ) {
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.observer = observer
    }

    /// Reports one finished call.
    public func record(_ record: BridgeCallRecord) {
        logger.debug(
            "bridge call",
            metadata: [
                "module": "\(record.module)", "action": "\(record.action)", "outcome": "\(record.outcome)",
                "duration_us": "\(record.duration.microseconds)", "request_bytes": "\(record.requestBytes)",
                "response_bytes": "\(record.responseBytes)",
            ])
        let factory = metricsFactory ?? MetricsSystem.factory
        let dimensions = [("module", record.module), ("action", record.action), ("outcome", record.outcome)]
        Counter(label: "pwakit_bridge_calls_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "pwakit_bridge_call_duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(record.duration.nanoseconds)
        Recorder(label: "pwakit_bridge_request_bytes", dimensions: dimensions[0..<2].map { $0 }, factory: factory)
            .record(record.requestBytes)
        Recorder(label: "pwakit_bridge_response_bytes", dimensions: dimensions[0..<2].map { $0 }, factory: factory)
            .record(record.responseBytes)
        observer?(record)
    }

    /// Reports a call the page's grant refused, at `notice` level (a page reaching for what it
    /// was not granted is worth seeing without debug logging). The page-chosen names are
    /// clipped so a page cannot flood the log.
    public func refused(origin: String, module: String, action: String, code: BridgeError.Code) {
        func clip(_ text: String) -> String { text.count <= 64 ? text : String(text.prefix(64)) + "…" }
        logger.notice(
            "bridge call refused",
            metadata: [
                "origin": "\(clip(origin))", "module": "\(clip(module))", "action": "\(clip(action))",
                "code": "\(code.rawValue)",
            ])
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }

    /// Whole microseconds.
    var microseconds: Int64 { nanoseconds / 1000 }
}
