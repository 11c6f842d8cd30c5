/// Where telemetry goes: the event buffer (and so the server), the log, metrics, a test's list.
public protocol TelemetrySink: Sendable {
    /// Takes one item; must not block for long (it runs on the caller's thread).
    func record(_ item: TelemetryItem)
}

/// A sink that drops everything: the default before the app sets its own.
public struct NoOpSink: TelemetrySink {
    /// Creates the sink.
    public init() {}
    /// Drops the item.
    public func record(_ item: TelemetryItem) {}
}
