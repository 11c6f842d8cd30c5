public import Metrics

/// Counts items through swift-metrics (`pwakit_telemetry_items` with `kind` and `name` dimensions)
/// and times spans (`pwakit_span_duration` with `name`), for whatever metrics backend the app
/// bootstrapped.
public struct MetricsSink: TelemetrySink {
    private let factory: any MetricsFactory

    /// Creates the sink over `factory` (the bootstrapped metrics system by default).
    public init(factory: any MetricsFactory = MetricsSystem.factory) { self.factory = factory }

    /// Counts the item; times a span.
    public func record(_ item: TelemetryItem) {
        Counter(
            label: "pwakit_telemetry_items", dimensions: [("kind", item.kind.rawValue), ("name", item.name)], factory: factory
        )
        .increment()
        if item.kind == .span, let duration = item.duration {
            let parts = duration.components
            Timer(label: "pwakit_span_duration", dimensions: [("name", item.name)], factory: factory)
                .recordNanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
        }
    }
}
