/// How an idempotent call is tried again after a transient failure: exponential backoff with
/// full jitter, capped, for a bounded number of attempts.
public struct HTTPRetryPolicy: Hashable, Sendable {
    /// Attempts in all, the first included (1: never retry).
    public var maximumAttempts: Int
    /// The backoff before the second attempt, doubled for each one after.
    public var initialBackoff: Duration
    /// The largest backoff.
    public var maximumBackoff: Duration

    /// Creates a policy.
    public init(maximumAttempts: Int = 3, initialBackoff: Duration = .milliseconds(200), maximumBackoff: Duration = .seconds(5)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// Three attempts, 200 ms then 400 ms at most, jittered.
    public static let standard = HTTPRetryPolicy()
    /// One attempt.
    public static let never = HTTPRetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt + 1` (attempt counts from 1), given a uniform random
    /// `unit` in [0, 1): full jitter over the capped exponential backoff.
    public func backoff(after attempt: Int, unit: Double) -> Duration {
        var ceiling = initialBackoff
        for _ in 1..<max(1, attempt) where ceiling < maximumBackoff { ceiling = ceiling * 2 }
        ceiling = min(ceiling, maximumBackoff)
        return ceiling * min(max(unit, 0), 1)
    }
}
