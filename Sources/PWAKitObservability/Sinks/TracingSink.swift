import Foundation
import PWAKitAPI
public import Tracing

/// Sends spans to swift-distributed-tracing: each ended ``Span`` becomes a span of the
/// bootstrapped tracer (or an injected one) with the same name, start and end, its category as
/// `pwakit.category` and its properties as attributes, under the task's current service context.
/// Errors become zero-length spans named `error` with the error's code, field and message, marked
/// failed. Other items are not traces; the other sinks take them.
///
/// With the OpenTelemetry exporter bootstrapped (`PWAKitOTel`, the `OTel` trait), these spans
/// reach the team's collector over OTLP.
public struct TracingSink: TelemetrySink {
    private let tracer: any Tracer

    /// A sink over `tracer` (the bootstrapped one by default).
    public init(tracer: any Tracer = InstrumentationSystem.tracer) { self.tracer = tracer }

    /// Records a span or an error as a trace span.
    public func record(_ item: TelemetryItem) {
        switch item.kind {
        case .span:
            let start = EpochInstant(item.date)
            let end = EpochInstant(item.date, plus: item.duration ?? .zero)
            let span = tracer.startSpan(item.name, context: ServiceContext.current ?? .topLevel, ofKind: .internal, at: start)
            describe(span, item)
            span.end(at: end)
        case .error:
            let instant = EpochInstant(item.date)
            let span = tracer.startSpan("error", context: ServiceContext.current ?? .topLevel, ofKind: .internal, at: instant)
            describe(span, item)
            span.attributes["pwakit.error.code"] = item.name
            span.setStatus(SpanStatus(code: .error, message: item.properties["message"].flatMap(Self.text)))
            span.end(at: instant)
        default:
            return
        }
    }

    private func describe(_ span: any Tracing.Span, _ item: TelemetryItem) {
        span.attributes["pwakit.category"] = item.category.rawValue
        for (key, value) in item.properties.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let text): span.attributes[key] = text
            case .number(let number): span.attributes[key] = number
            case .bool(let flag): span.attributes[key] = flag
            }
        }
    }

    private static func text(_ value: ScalarValue) -> String? {
        if case .string(let text) = value { text } else { nil }
    }
}

/// A wall-clock instant for the tracer: nanoseconds since 1970, from a date plus a duration.
struct EpochInstant: TracerInstant {
    let nanosecondsSinceEpoch: UInt64

    init(_ date: Date, plus duration: Duration = .zero) {
        let base = max(0, date.timeIntervalSince1970)
        let parts = duration.components
        let extra = max(0, parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
        nanosecondsSinceEpoch = UInt64(base * 1_000_000_000) &+ UInt64(extra)
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch }
}
