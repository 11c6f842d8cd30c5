public import Logging
import PWAKitAPI

/// Writes every item as a log line through swift-log (already redacted by the facade), errors at
/// `error` level, the rest at `info`, with the item's category and properties as metadata.
public struct LogSink: TelemetrySink {
    private let logger: Logger

    /// Creates a sink logging through `logger`.
    public init(logger: Logger = Logger(label: "pwakit.telemetry")) { self.logger = logger }

    /// Logs the item.
    public func record(_ item: TelemetryItem) {
        var metadata: Logger.Metadata = ["category": .string(item.category.rawValue), "kind": .string(item.kind.rawValue)]
        for (key, value) in item.properties {
            switch value {
            case .string(let text): metadata[key] = .string(text)
            case .number(let number): metadata[key] = .stringConvertible(number)
            case .bool(let flag): metadata[key] = .stringConvertible(flag)
            }
        }
        if let duration = item.duration { metadata["duration"] = .string("\(duration)") }
        logger.log(level: item.kind == .error ? .error : .info, "\(item.name)", metadata: metadata)
    }
}
