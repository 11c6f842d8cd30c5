import Foundation
import InMemoryTracing
import PWAKitAPI
import PWAKitObservability
import PWAKitTesting
import Testing
import Tracing

@Suite("Tracing sink")
struct TracingSinkTests {
    @Test("an ended span is a trace span with its name, times, category and redacted properties")
    func spans() throws {
        let tracer = InMemoryTracer()
        let clock = ManualClock()
        let consent = ConsentStore(file: nil, isDebug: false)
        try consent.set(.performance, granted: true)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let telemetry = Telemetry(
            sinks: [TracingSink(tracer: tracer)], consent: consent, now: { start }, clock: clock)
        let span = telemetry.startSpan("catalog_load", properties: ["apps": .number(3), "email": .string("ann@example.com")])
        clock.advance(seconds: 0.25)
        span.end(properties: ["cached": .bool(true)])
        telemetry.track("not_a_span")

        let finished = tracer.finishedSpans
        #expect(finished.count == 1)
        let traced = try #require(finished.first)
        #expect(traced.operationName == "catalog_load")
        #expect(traced.startInstant.nanosecondsSinceEpoch == 1_800_000_000 * 1_000_000_000)
        #expect(traced.endInstant.nanosecondsSinceEpoch - traced.startInstant.nanosecondsSinceEpoch == 250_000_000)
        #expect(traced.attributes["pwakit.category"]?.toSpanAttribute() == .string("performance"))
        #expect(traced.attributes["apps"]?.toSpanAttribute() == .double(3))
        #expect(traced.attributes["cached"]?.toSpanAttribute() == .bool(true))
        #expect(traced.attributes["email"]?.toSpanAttribute() != .string("ann@example.com"), "personal data is redacted first")
    }

    @Test("an error is a failed zero-length span with its code; consent still decides what is sent")
    func errors() throws {
        let tracer = InMemoryTracer()
        let consent = ConsentStore(file: nil, isDebug: false)
        let telemetry = Telemetry(sinks: [TracingSink(tracer: tracer)], consent: consent)
        telemetry.startSpan("not_granted").end()
        #expect(tracer.finishedSpans.isEmpty)
        telemetry.error(Failure())
        let traced = try #require(tracer.finishedSpans.first)
        #expect(traced.operationName == "error")
        #expect(traced.status?.code == .error)
        #expect(traced.attributes["pwakit.error.code"]?.toSpanAttribute() == .string("internal_error"))
        #expect(traced.startInstant.nanosecondsSinceEpoch == traced.endInstant.nanosecondsSinceEpoch)
    }
}
