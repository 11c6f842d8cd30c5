/// Exponential backoff with full jitter, bounded by the request's deadline.
///
/// Attempt 0 is immediate; before attempt `n` the sender waits a random duration in
/// `0 ... min(maximumDelay, initialDelay × multiplier^(n-1))`.
public struct RetryPolicy: Hashable, Sendable {
    /// The backoff ceiling for the first retry.
    public var initialDelay: Duration
    /// The growth factor per retry.
    public var multiplier: Double
    /// The largest backoff ceiling.
    public var maximumDelay: Duration
    /// The most transmissions of one request; `nil` retries until the deadline.
    public var maximumAttempts: Int?

    /// Creates a policy.
    public init(
        initialDelay: Duration = .milliseconds(200), multiplier: Double = 2, maximumDelay: Duration = .seconds(10),
        maximumAttempts: Int? = nil
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The seed's default: 200 ms doubling up to 10 s, until the deadline.
    public static let standard = RetryPolicy()

    /// A single attempt, no retries.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// The backoff ceiling before attempt `attempt` (1-based for retries; 0 is immediate).
    public func ceiling(forAttempt attempt: Int) -> Duration {
        guard attempt > 0 else { return .zero }
        let initial = Double(initialDelay.wholeMilliseconds)
        let cap = Double(maximumDelay.wholeMilliseconds)
        var value = initial
        for _ in 1..<attempt {
            value *= max(multiplier, 1)
            if value >= cap { break }
        }
        return .milliseconds(Int64(min(value, cap)))
    }

    /// A full-jitter delay before attempt `attempt`, drawn from `random`.
    public func delay(forAttempt attempt: Int, using random: inout SeededRandom) -> Duration {
        let ceiling = ceiling(forAttempt: attempt).wholeMilliseconds
        guard ceiling > 0 else { return .zero }
        return .milliseconds(Int64(random.next() % UInt64(ceiling + 1)))
    }

    /// Whether another transmission is allowed after `attempts` transmissions.
    public func allowsAttempt(after attempts: Int) -> Bool {
        guard let maximumAttempts else { return true }
        return attempts < maximumAttempts
    }
}
