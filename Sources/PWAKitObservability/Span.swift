public import PWAKitAPI
import Synchronization

/// A timed operation: started by ``Telemetry/startSpan(_:category:properties:)`` and reported,
/// with its duration on the telemetry's clock, when ``end(properties:)`` is called (once; later
/// calls do nothing).
public final class Span: Sendable {
    /// The operation's name.
    public let name: String
    private let finish: @Sendable ([String: ScalarValue]) -> Void
    private let ended = Mutex(false)

    init(name: String, finish: @escaping @Sendable ([String: ScalarValue]) -> Void) {
        self.name = name
        self.finish = finish
    }

    /// Ends the span, adding `properties` to those it started with.
    public func end(properties: [String: ScalarValue] = [:]) {
        let first = ended.withLock { done in
            defer { done = true }
            return !done
        }
        if first { finish(properties) }
    }
}
