import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import PWAKitAPI
import PWAKitDependencies
import PWAKitEvents
import PWAKitObservability
import PWAKitTesting
import Synchronization
import Testing

/// A sink that keeps what it got.
final class ListSink: TelemetrySink {
    let items = Mutex<[TelemetryItem]>([])
    func record(_ item: TelemetryItem) { items.withLock { $0.append(item) } }
    var all: [TelemetryItem] { items.withLock { $0 } }
}

struct Failure: Error, CustomStringConvertible {
    var description: String { "boom for ann@example.com" }
}

@Suite("Telemetry")
struct TelemetryTests {
    static func telemetry(
        _ sinks: [any TelemetrySink], debug: Bool = false, grant: [TelemetryCategory] = [.analytics, .performance]
    )
        throws -> Telemetry
    {
        let consent = ConsentStore(file: nil, isDebug: debug)
        for category in grant { try consent.set(category, granted: true) }
        return Telemetry(sinks: sinks, consent: consent, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    @Test("every sink gets every item, with its kind and category")
    func multiplexes() throws {
        let first = ListSink()
        let second = ListSink()
        let telemetry = try Self.telemetry([first, second])
        telemetry.track("push_permission_pre_prompt_accepted", ["status": .string("notDetermined")])
        telemetry.screen("catalog")
        telemetry.setUserProperty("plan", .string("pro"))
        telemetry.error(Failure())
        #expect(first.all.map(\.kind) == [.event, .screen, .userProperty, .error])
        #expect(first.all == second.all)
        #expect(first.all.map(\.category) == [.analytics, .analytics, .analytics, .diagnostics])
    }

    @Test("analytics and performance are off until granted, and off in debug builds unless asked; diagnostics always on")
    func consent() throws {
        let sink = ListSink()
        let none = try Self.telemetry([sink], grant: [])
        none.track("a")
        none.startSpan("s").end()
        none.error(Failure())
        #expect(sink.all.map(\.kind) == [.error])
        let debugSink = ListSink()
        let debug = try Self.telemetry([debugSink], debug: true)
        debug.track("a")
        #expect(debugSink.all.isEmpty)
        let forced = ConsentStore(file: nil, isDebug: true, sendInDebug: true)
        try forced.set(.analytics, granted: true)
        #expect(forced.allows(.analytics))
    }

    @Test("consent is kept in a file across launches; withdrawing it stops sending")
    func consentPersists() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("consent-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try ConsentStore(file: file, isDebug: false).set(.analytics, granted: true)
        let relaunched = ConsentStore(file: file, isDebug: false)
        #expect(relaunched.allows(.analytics))
        #expect(!relaunched.allows(.performance))
        try relaunched.set(.analytics, granted: false)
        #expect(!ConsentStore(file: file, isDebug: false).allows(.analytics))
        try Data("not json".utf8).write(to: file)
        let unreadable = ConsentStore(file: file, isDebug: false)
        #expect(!unreadable.allows(.analytics))
        #expect(unreadable.problem?.contains(file.path) == true)
        // A change never overwrites the unreadable file: it is kept aside first.
        try unreadable.set(.performance, granted: true)
        let folder = file.deletingLastPathComponent()
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(file.lastPathComponent + ".unreadable-") }
        defer { for name in aside { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) } }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside.first ?? "")) == Data("not json".utf8))
        let reopened = ConsentStore(file: file, isDebug: false)
        #expect(reopened.problem == nil)
        #expect(reopened.allows(.performance) && !reopened.allows(.analytics))
    }

    @Test("personal data is redacted from properties and messages before any sink sees it")
    func redaction() throws {
        let sink = ListSink()
        let telemetry = try Self.telemetry([sink])
        telemetry.track(
            "signed_in",
            [
                "user_email": .string("ann@example.com"), "note": .string("call +44 20 7946 0958 or mail ann@example.com now"),
                "header": .string("Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"), "count": .number(3),
                "card": .string("4111 1111 1111 1111"), "query": .string("password=hunter2 page=2"),
            ])
        let properties = try #require(sink.all.first?.properties)
        #expect(properties["user_email"] == .string(Redactor.mask))
        #expect(properties["card"] == .string(Redactor.mask))
        #expect(properties["note"] == .string("call <redacted> or mail <redacted> now"))
        #expect(properties["header"] == .string("Bearer <redacted>"))
        #expect(properties["query"] == .string("password=<redacted> page=2"))
        #expect(properties["count"] == .number(3))
        telemetry.error(Failure())
        #expect(sink.all.last?.properties["message"] == .string("boom for <redacted>"))
    }

    @Test("numbers: phones and card numbers go, dates, versions, counts and small numbers stay")
    func numbers() {
        let redactor = Redactor()
        let cases: [(String, String)] = [
            ("call (555) 123-4567 today", "call <redacted> today"), ("+1 202 555 0100", "<redacted>"),
            ("card 4111-1111-1111-1111.", "card <redacted>."), ("on 2026-11-26 at 02:50", "on 2026-11-26 at 02:50"),
            ("version 1.2.3, 42 items, page 2 of 10", "version 1.2.3, 42 items, page 2 of 10"),
            ("id 123456789012", "id <redacted>"), ("", ""), ("+", "+"), ("(x)", "(x)"),
        ]
        for (text, expected) in cases { #expect(redactor.redact(text) == expected, "\(text)") }
        let hostile = String(repeating: "1 ", count: 50_000)
        #expect(redactor.redact(hostile) == "<redacted> ")
    }

    @Test("a span reports its duration on the injected clock, once")
    func spans() async throws {
        let sink = ListSink()
        let clock = ManualClock()
        let consent = ConsentStore(file: nil, isDebug: false)
        try consent.set(.performance, granted: true)
        let telemetry = Telemetry(sinks: [sink], consent: consent, clock: clock)
        let span = telemetry.startSpan("catalog_load", properties: ["cached": .bool(true)])
        clock.advance(by: .milliseconds(250))
        span.end(properties: ["count": .number(12)])
        span.end()
        #expect(sink.all.count == 1)
        #expect(sink.all.first?.duration == .milliseconds(250))
        #expect(sink.all.first?.properties == ["cached": .bool(true), "count": .number(12)])
    }

    @Test("the event-buffer sink queues analytics as events the relay sends; diagnostics stay on the device")
    func eventBufferSink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        let telemetry = try Self.telemetry([EventBufferSink(buffer: buffer, source: "app")])
        telemetry.track("push_permission_system_prompt_result", ["granted": .bool(true)])
        telemetry.screen("settings")
        telemetry.setUserProperty("plan", .string("pro"))
        telemetry.startSpan("launch").end()
        telemetry.error(Failure())
        telemetry.track("Not A Valid Name")
        try buffer.close()
        let events = try buffer.sealedChunks().flatMap { try buffer.read(chunk: $0)?.events ?? [] }
        #expect(events.map(\.name) == ["push_permission_system_prompt_result", "screen_view", "user_property", "span"])
        #expect(events[1].properties["screen"] == .string("settings"))
        #expect(events[2].properties["key"] == .string("plan"))
        #expect(events[3].properties["duration_ms"] != nil)
        #expect(events.allSatisfy { $0.source == "app" && $0.timestamp == 1_800_000_000_000 })
    }

    @Test("the log sink writes redacted lines through swift-log; the metrics sink counts and times")
    func logAndMetrics() throws {
        let logs = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in logs }
        let metrics = TestMetrics()
        let consent = ConsentStore(file: nil, isDebug: false)
        try consent.set(.analytics, granted: true)
        try consent.set(.performance, granted: true)
        let telemetry = Telemetry(
            sinks: [LogSink(logger: logger), MetricsSink(factory: metrics)], consent: consent)
        telemetry.track("signed_in", ["email": .string("ann@example.com")])
        telemetry.error(Failure())
        telemetry.startSpan("load").end()
        let entries = logs.entries
        #expect(entries.map(\.message.description) == ["signed_in", "internal_error", "load"])
        #expect(entries[0].metadata["email"] == .string(Redactor.mask))
        #expect(entries[1].level == .error)
        #expect(try metrics.expectCounter("pwakit_telemetry_items", [("kind", "event"), ("name", "signed_in")]).totalValue == 1)
        #expect(try metrics.expectTimer("pwakit_span_duration", [("name", "load")]).values.count == 1)
    }

    @Test("telemetry is a dependency: disabled unless the app sets it, free to use in tests")
    func dependency() async throws {
        let sink = ListSink()
        let configured = try Self.telemetry([sink])
        await withTestDependencies {
            DependencyValues.current.telemetry.track("ignored")
            withDependencies {
                $0.telemetry = configured
            } operation: {
                DependencyValues.current.telemetry.track("kept")
            }
        }
        #expect(sink.all.map(\.name) == ["kept"])
    }
}
