/// Exponential backoff with full jitter: how a failed operation is tried again.
///
/// Attempt 1 is immediate; before attempt `n + 1` the caller waits a random duration in
/// `0 ... min(maximumDelay, initialDelay × multiplier^(n-1))` (full jitter, so that clients
/// that failed together do not retry together). ``maximumAttempts`` bounds the attempts in all,
/// the first included; `nil` leaves the bound to the caller (a deadline, say).
///
/// One policy serves the HTTP client (``run(clock:jitter:shouldRetry:_:)`` over any `Clock`)
/// and WatchLink's engine, which draws its jitter from a ``SeededRandom`` so that a chaos run
/// replays from its seed.
public struct RetryPolicy: Hashable, Sendable {
    /// The backoff ceiling before the first retry.
    public var initialDelay: Duration
    /// The growth factor of the ceiling per retry (at least 1).
    public var multiplier: Double
    /// The largest backoff ceiling.
    public var maximumDelay: Duration
    /// The most attempts of one operation, the first included; `nil` for no bound.
    public var maximumAttempts: Int?

    /// Creates a policy; a `maximumAttempts` below 1 counts as 1.
    public init(
        initialDelay: Duration = .milliseconds(200), multiplier: Double = 2, maximumDelay: Duration = .seconds(10),
        maximumAttempts: Int? = nil
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts.map { max(1, $0) }
    }

    /// 200 ms doubling up to 10 s, with no bound on the attempts (WatchLink bounds them by the
    /// request's deadline).
    public static let standard = RetryPolicy()

    /// A single attempt, no retries.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// The backoff ceiling before retry `retry` (1 for the first retry; 0 and below wait nothing),
    /// in whole milliseconds.
    public func ceiling(forAttempt retry: Int) -> Duration {
        guard retry > 0 else { return .zero }
        let initial = Double(initialDelay.wholeMilliseconds)
        let cap = Double(maximumDelay.wholeMilliseconds)
        var value = initial
        for _ in 1..<retry {
            value *= max(multiplier, 1)
            if value >= cap { break }
        }
        return .milliseconds(Int64(min(value, cap)))
    }

    /// A full-jitter delay before retry `retry`, drawn from `random`: whole milliseconds,
    /// uniform over `0 ... ceiling`.
    public func delay(forAttempt retry: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(forAttempt: retry).wholeMilliseconds
        guard ceiling > 0 else { return .zero }
        return .milliseconds(Int64(random.next() % UInt64(ceiling + 1)))
    }

    /// The delay before retry `retry` for a uniform `unit` in [0, 1): `unit × ceiling`.
    public func delay(forAttempt retry: Int, unit: Double) -> Duration {
        ceiling(forAttempt: retry) * min(max(unit, 0), 1)
    }

    /// Whether another attempt is allowed after `attempts` attempts.
    public func allowsAttempt(after attempts: Int) -> Bool {
        guard let maximumAttempts else { return true }
        return attempts < maximumAttempts
    }

    /// Runs `operation` until it succeeds, `shouldRetry` declines its outcome, or the attempts run
    /// out, sleeping on `clock` between attempts; returns or throws the last outcome.
    ///
    /// `operation` gets the attempt's number (from 1). Cancellation stops the loop: a cancelled
    /// task throws `CancellationError` before its next attempt or from its sleep.
    ///
    /// - Parameters:
    ///   - clock: what the waits sleep on (a manual clock in tests).
    ///   - jitter: a uniform random number in [0, 1) per wait.
    ///   - shouldRetry: whether an outcome (a value or an error) is worth another attempt.
    public func run<C: Clock<Duration>, Value>(
        clock: C, jitter: () -> Double = { Double.random(in: 0..<1) },
        shouldRetry: (Result<Value, any Error>) -> Bool, _ operation: (Int) async throws -> Value
    ) async throws -> Value {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let outcome: Result<Value, any Error>
            do { outcome = .success(try await operation(attempt)) } catch { outcome = .failure(error) }
            guard allowsAttempt(after: attempt), shouldRetry(outcome) else { return try outcome.get() }
            try await clock.sleep(for: delay(forAttempt: attempt, unit: jitter()))
            attempt += 1
        }
    }
}

extension RetryPolicy: Codable {
    enum CodingKeys: String, CodingKey { case initialDelay, multiplier, maximumDelay, maximumAttempts }

    /// Decodes a policy; delays are whole milliseconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            initialDelay: .milliseconds(try c.decode(Int64.self, forKey: .initialDelay)),
            multiplier: try c.decode(Double.self, forKey: .multiplier),
            maximumDelay: .milliseconds(try c.decode(Int64.self, forKey: .maximumDelay)),
            maximumAttempts: try c.decodeIfPresent(Int.self, forKey: .maximumAttempts))
    }

    /// Encodes a policy; delays are whole milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(initialDelay.wholeMilliseconds, forKey: .initialDelay)
        try c.encode(multiplier, forKey: .multiplier)
        try c.encode(maximumDelay.wholeMilliseconds, forKey: .maximumDelay)
        try c.encodeIfPresent(maximumAttempts, forKey: .maximumAttempts)
    }
}

extension Duration {
    /// The duration truncated to whole milliseconds.
    package var wholeMilliseconds: Int64 {
        let parts = components
        return parts.seconds &* 1000 &+ parts.attoseconds / 1_000_000_000_000_000
    }
}
