public import Foundation
public import PWAKitAPI
import PWAKitErrors

/// The app's observability facade: events, screen views, user properties, errors and performance
/// spans, each with a category, sent to every sink the app configured — when consent allows
/// the category — with personal data redacted first.
///
/// ```swift
/// let telemetry = Telemetry(
///     sinks: [EventBufferSink(buffer: buffer), LogSink(), MetricsSink()],
///     consent: ConsentStore(file: appGroup.appendingPathComponent("consent.json"), isDebug: isDebug))
/// telemetry.track("push_permission_pre_prompt_accepted", ["status": .string("notDetermined")])
/// let span = telemetry.startSpan("catalog_load")
/// …
/// span.end()
/// ```
public struct Telemetry: Sendable {
    /// Where items go.
    public let sinks: [any TelemetrySink]
    /// What the person agreed to.
    public let consent: ConsentStore
    /// What is removed from properties and messages.
    public let redactor: Redactor
    private let now: @Sendable () -> Date
    /// Starts a stopwatch on the clock spans are timed on; calling the result reads it.
    private let stopwatch: @Sendable () -> @Sendable () -> Duration

    /// Creates the facade over `sinks`; spans are timed on `clock`.
    public init<C: Clock<Duration>>(
        sinks: [any TelemetrySink], consent: ConsentStore, redactor: Redactor = Redactor(),
        now: @escaping @Sendable () -> Date = { Date() }, clock: C = ContinuousClock()
    ) {
        self.sinks = sinks
        self.consent = consent
        self.redactor = redactor
        self.now = now
        stopwatch = {
            let started = clock.now
            return { started.duration(to: clock.now) }
        }
    }

    /// A facade that records nothing.
    public static let disabled = Telemetry(sinks: [], consent: ConsentStore(file: nil, isDebug: true))

    /// Records that something happened.
    public func track(_ name: String, _ properties: [String: ScalarValue] = [:], category: TelemetryCategory = .analytics) {
        record(TelemetryItem(kind: .event, name: name, category: category, properties: properties, date: now()))
    }

    /// Records that a screen was shown.
    public func screen(_ name: String, _ properties: [String: ScalarValue] = [:]) {
        record(TelemetryItem(kind: .screen, name: name, category: .analytics, properties: properties, date: now()))
    }

    /// Records a property of the user (`plan`, `locale`); personal ones are redacted like any other.
    public func setUserProperty(_ key: String, _ value: ScalarValue) {
        record(TelemetryItem(kind: .userProperty, name: key, category: .analytics, properties: ["value": value], date: now()))
    }

    /// Records a caught error as the one error shape reads it: its code, field and message
    /// (redacted), kept on the device (``TelemetryCategory/diagnostics``).
    public func error(_ error: any Error, _ properties: [String: ScalarValue] = [:]) {
        let report = ErrorReport(error)
        var fields = properties
        fields["message"] = .string(report.message)
        if let field = report.field { fields["field"] = .string(field) }
        record(TelemetryItem(kind: .error, name: report.code, category: .diagnostics, properties: fields, date: now()))
    }

    /// Starts timing an operation; its duration is reported when the span ends.
    public func startSpan(
        _ name: String, category: TelemetryCategory = .performance, properties: [String: ScalarValue] = [:]
    ) -> Span {
        let elapsed = stopwatch()
        let startDate = now()
        let telemetry = self
        return Span(name: name) { extra in
            telemetry.record(
                TelemetryItem(
                    kind: .span, name: name, category: category, properties: properties.merging(extra) { $1 },
                    date: startDate, duration: elapsed()))
        }
    }

    /// Hands an item to every sink, when consent allows its category, with personal data redacted.
    public func record(_ item: TelemetryItem) {
        guard !sinks.isEmpty, consent.allows(item.category) else { return }
        var cleaned = item
        cleaned.properties = redact(item.properties)
        for sink in sinks { sink.record(cleaned) }
    }

    func redact(_ properties: [String: ScalarValue]) -> [String: ScalarValue] {
        var cleaned: [String: ScalarValue] = [:]
        for (key, value) in properties {
            if redactor.isSensitive(key: key) {
                cleaned[key] = .string(Redactor.mask)
            } else if case .string(let text) = value {
                cleaned[key] = .string(redactor.redact(text))
            } else {
                cleaned[key] = value
            }
        }
        return cleaned
    }
}
