import Synchronization

/// A clock whose sleeps return at once, moving its time forward by what was asked: for code that
/// waits between attempts (retry backoff) in tests that should neither sleep nor drive a
/// ``ManualClock`` by hand. It records every sleep, so a test can check the waits themselves.
public final class ImmediateClock: Clock, Sendable {
    /// The instant type: the offset from the clock's zero, as on a manual clock.
    public typealias Instant = ManualClock.Instant

    private struct State {
        var now = Instant(offset: .zero)
        var sleeps: [Duration] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at zero.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Every sleep so far, as the durations asked for (zero for a deadline already past).
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves the clock to `deadline` (when it is later) and returns; throws `CancellationError`
    /// when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            let step = max(.zero, state.now.duration(to: deadline))
            state.sleeps.append(step)
            state.now = state.now.advanced(by: step)
        }
    }
}
