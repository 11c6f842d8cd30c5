public import Foundation
import Synchronization

/// A clock that only moves when told to, so tests that involve time never sleep: the one manual
/// clock of the project's tests (the bridge dispatcher, WatchLink, the mini-app runtime).
///
/// Sleepers are resumed in deadline order when ``advance(by:)`` or ``advance(to:)`` passes
/// their deadline; cancelled sleepers throw `CancellationError`.
public final class ManualClock: Clock, Sendable {
    /// An instant on a manual clock: the offset from the clock's zero.
    public struct Instant: InstantProtocol, Sendable {
        /// The offset from the clock's zero.
        public var offset: Duration

        /// Creates an instant at `offset` from zero.
        public init(offset: Duration) { self.offset = offset }

        /// The instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
    }

    private let state = Mutex(State())
    /// The wall-clock time at zero, for code that reads `Date`s (``date``).
    public let origin: Date

    /// Creates a clock at zero, which is `origin` on the wall clock.
    public init(origin: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.origin = origin
    }

    /// The wall-clock time now: ``origin`` plus the time this clock has moved.
    public var date: Date {
        let offset = now.offset.components
        return origin.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// Moves the clock forward by `seconds` (``advance(by:)`` in wall-clock units).
    public func advance(seconds: Double) {
        advance(by: .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step this clock can take.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The number of tasks currently sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline` or beyond.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if deadline <= state.now { return true }
                    if Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards), waking every sleeper whose deadline has passed.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
