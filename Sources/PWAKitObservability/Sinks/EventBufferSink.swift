import Foundation
import PWAKitAPI
public import PWAKitEvents

/// Sends analytics off the device: each item becomes an event in the crash-safe buffer, which the
/// relay delivers to `POST /v1/events`. Screens are `screen_view` events with a `screen` property;
/// user properties are `user_property` events; spans carry `duration_ms`. Items whose names break
/// the event rules are counted as dropped rather than thrown at the caller.
public final class EventBufferSink: TelemetrySink {
    /// The buffer events go to.
    public let buffer: EventBuffer
    /// The `source` of the events (`app`, `share`, …).
    public let source: String

    /// Creates a sink writing to `buffer` as `source`.
    public init(buffer: EventBuffer, source: String = "app") {
        self.buffer = buffer
        self.source = source
    }

    /// Queues the item as an event.
    public func record(_ item: TelemetryItem) {
        guard item.category != .diagnostics else { return }
        var properties = item.properties
        var name = item.name
        switch item.kind {
        case .screen:
            properties["screen"] = .string(item.name)
            name = "screen_view"
        case .userProperty:
            properties["key"] = .string(item.name)
            name = "user_property"
        case .span:
            properties["span"] = .string(item.name)
            if let duration = item.duration {
                let parts = duration.components
                properties["duration_ms"] = .number(Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15)
            }
            name = "span"
        case .event, .error: break
        }
        let timestamp = Int64((item.date.timeIntervalSince1970 * 1000).rounded())
        let event = EventPayload(
            id: EventID.make(milliseconds: timestamp), name: name, timestamp: timestamp, source: source, properties: properties)
        // NB: telemetry never throws at the code it observes; an event the rules refuse is simply not sent.
        try? buffer.record(event)
    }
}
