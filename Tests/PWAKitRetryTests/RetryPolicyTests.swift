import Foundation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

struct Flaky: Error {}

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("the ceiling doubles from the initial delay up to its cap; jitter scales it; attempt 0 waits nothing")
    func ceilings() {
        let policy = RetryPolicy(initialDelay: .milliseconds(200), maximumDelay: .milliseconds(500), maximumAttempts: 5)
        #expect(policy.ceiling(forAttempt: 0) == .zero)
        #expect(policy.ceiling(forAttempt: 1) == .milliseconds(200))
        #expect(policy.ceiling(forAttempt: 2) == .milliseconds(400))
        #expect(policy.ceiling(forAttempt: 3) == .milliseconds(500))
        #expect(policy.ceiling(forAttempt: 60) == .milliseconds(500))
        #expect(policy.delay(forAttempt: 3, unit: 0.5) == .milliseconds(250))
        #expect(policy.delay(forAttempt: 1, unit: 0) == .zero)
        #expect(policy.delay(forAttempt: 1, unit: 7) == .milliseconds(200))
        #expect(policy.delay(forAttempt: 1, unit: -1) == .zero)
        #expect(RetryPolicy(multiplier: 0.5).ceiling(forAttempt: 4) == .milliseconds(200))
    }

    @Test("seeded jitter is reproducible and stays within the ceiling")
    func seededJitter() {
        let policy = RetryPolicy.standard
        var first = SeededRandom(seed: 7)
        var second = SeededRandom(seed: 7)
        for attempt in 1...40 {
            let delay = policy.delay(forAttempt: attempt, using: &first)
            #expect(delay == policy.delay(forAttempt: attempt, using: &second))
            #expect(delay >= .zero && delay <= policy.ceiling(forAttempt: attempt))
        }
    }

    @Test("attempts are bounded; a bound below one means one attempt")
    func attemptBounds() {
        #expect(RetryPolicy.none.allowsAttempt(after: 1) == false)
        #expect(RetryPolicy(maximumAttempts: -3).maximumAttempts == 1)
        #expect(RetryPolicy(maximumAttempts: 3).allowsAttempt(after: 2))
        #expect(RetryPolicy(maximumAttempts: 3).allowsAttempt(after: 3) == false)
        #expect(RetryPolicy.standard.allowsAttempt(after: 1_000_000))
    }

    @Test("run retries what shouldRetry accepts, sleeping the jittered backoff on the clock, and stops at the bound")
    func runRetries() async throws {
        let clock = ImmediateClock()
        let calls = Mutex(0)
        let policy = RetryPolicy(initialDelay: .milliseconds(100), maximumAttempts: 4)
        let value = try await policy.run(
            clock: clock, jitter: { 1 },
            shouldRetry: { (outcome: Result<Int, any Error>) in
                (try? outcome.get()) == nil
            }
        ) { attempt in
            calls.withLock { $0 += 1 }
            if attempt < 3 { throw Flaky() }
            return attempt
        }
        #expect(value == 3)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])

        let exhausted = ImmediateClock()
        await #expect(throws: Flaky.self) {
            try await policy.run(clock: exhausted, jitter: { 0 }, shouldRetry: { (_: Result<Int, any Error>) in true }) {
                _ in throw Flaky()
            }
        }
        #expect(exhausted.sleeps.count == 3)
    }

    @Test("an outcome shouldRetry declines is returned at once, value or error")
    func declinedOutcome() async throws {
        let clock = ImmediateClock()
        let policy = RetryPolicy(maximumAttempts: 5)
        let value = try await policy.run(clock: clock, shouldRetry: { (_: Result<String, any Error>) in false }) { _ in "x" }
        #expect(value == "x")
        await #expect(throws: Flaky.self) {
            try await policy.run(clock: clock, shouldRetry: { (_: Result<String, any Error>) in false }) { _ in throw Flaky() }
        }
        #expect(clock.sleeps.isEmpty)
    }

    @Test("a cancelled run stops before its next attempt, on a manual clock that never moves")
    func cancellation() async throws {
        let clock = ManualClock()
        let attempts = Mutex(0)
        let task = Task {
            try await RetryPolicy.standard.run(clock: clock, shouldRetry: { (_: Result<Int, any Error>) in true }) { _ in
                attempts.withLock { $0 += 1 }
                throw Flaky()
            }
        }
        while attempts.withLock({ $0 }) == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test("a policy survives JSON as whole milliseconds; a hostile document names the field")
    func coding() throws {
        let policy = RetryPolicy(initialDelay: .milliseconds(150), multiplier: 3, maximumDelay: .seconds(2), maximumAttempts: 4)
        let data = try JSONEncoder().encode(policy)
        #expect(try JSONDecoder().decode(RetryPolicy.self, from: data) == policy)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"initialDelay\":150"))
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                RetryPolicy.self, from: Data(#"{"initialDelay":"soon","multiplier":2,"maximumDelay":1}"#.utf8))
        }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("expected a type mismatch"); return }
        #expect(context.codingPath.map(\.stringValue) == ["initialDelay"])
    }
}
