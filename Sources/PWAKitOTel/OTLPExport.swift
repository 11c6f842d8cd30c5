#if OTel
    public import OTel
    public import ServiceLifecycle
    public import Tracing

    /// OpenTelemetry export over OTLP/HTTP through swift-otel, for teams that run a collector
    /// (the `OTel` package trait: `swift build --traits OTel`).
    ///
    /// ```swift
    /// let observability = try OTLPExport.bootstrap(collector: "http://collector:4318", serviceName: "notes")
    /// // run `observability` in the app's service group; TracingSink spans and swift-metrics now reach the collector
    /// ```
    public enum OTLPExport {
        /// The wire encoding of the exported data.
        public enum Encoding: String, Sendable, CaseIterable {
            /// `http/protobuf`, the OTLP default.
            case protobuf = "http/protobuf"
            /// `http/json`.
            case json = "http/json"
        }

        /// The configuration that sends traces to `<collector>/v1/traces` and metrics to
        /// `<collector>/v1/metrics` (the `OTEL_EXPORTER_OTLP_ENDPOINT` convention), with logs left to
        /// the app's own handler; spans are batched and sent at most `delay` after they end.
        public static func configuration(
            collector: String, serviceName: String, encoding: Encoding = .protobuf, metrics: Bool = true,
            delay: Duration = .seconds(5)
        ) -> OTel.Configuration {
            let base = collector.hasSuffix("/") ? String(collector.dropLast()) : collector
            var configuration = OTel.Configuration.default
            configuration.serviceName = serviceName
            configuration.logs.enabled = false
            configuration.traces.exporter = .otlp
            configuration.traces.otlpExporter.endpoint = base + "/v1/traces"
            configuration.traces.otlpExporter.protocol = encoding == .json ? .httpJSON : .httpProtobuf
            configuration.traces.batchSpanProcessor.scheduleDelay = delay
            configuration.metrics.enabled = metrics
            configuration.metrics.exporter = .otlp
            configuration.metrics.otlpExporter.endpoint = base + "/v1/metrics"
            configuration.metrics.otlpExporter.protocol = encoding == .json ? .httpJSON : .httpProtobuf
            return configuration
        }

        /// Bootstraps swift-distributed-tracing and swift-metrics process-wide to export to
        /// `collector`; the returned service does the exporting and must run (in the app's service
        /// group) until the app stops, when it flushes what is left. Call once per process.
        public static func bootstrap(
            collector: String, serviceName: String, encoding: Encoding = .protobuf
        ) throws -> some Service {
            try OTel.bootstrap(
                configuration: configuration(collector: collector, serviceName: serviceName, encoding: encoding),
                environment: [:])
        }

        /// A tracer exporting to `collector` without touching the process-wide systems (for a
        /// ``TracingSink`` of its own, and for tests); run the service while spans are recorded.
        public static func tracer(
            collector: String, serviceName: String, encoding: Encoding = .protobuf, delay: Duration = .seconds(5)
        ) throws -> (tracer: any Tracer, service: any Service) {
            var configuration = configuration(
                collector: collector, serviceName: serviceName, encoding: encoding, metrics: false, delay: delay)
            configuration.metrics.enabled = false
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            return (backend.factory, backend.service)
        }
    }
#endif
