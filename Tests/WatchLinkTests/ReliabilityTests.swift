import PWAKitRetry
import Testing

@testable import WatchLink

@Suite struct ReliabilityTests {
    @Test func backoffCeilingGrowsExponentiallyAndCaps() {
        let policy = RetryPolicy(initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .milliseconds(1000))
        #expect(policy.ceiling(forAttempt: 0) == .zero)
        #expect(policy.ceiling(forAttempt: 1) == .milliseconds(100))
        #expect(policy.ceiling(forAttempt: 2) == .milliseconds(200))
        #expect(policy.ceiling(forAttempt: 4) == .milliseconds(800))
        #expect(policy.ceiling(forAttempt: 5) == .milliseconds(1000))
        #expect(policy.ceiling(forAttempt: 60) == .milliseconds(1000))
    }

    @Test func fullJitterStaysUnderTheCeilingAndIsSeeded() {
        let policy = RetryPolicy(initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .milliseconds(1000))
        var a = SeededRandom(seed: 9)
        var b = SeededRandom(seed: 9)
        var distinct = Set<Duration>()
        for attempt in 1...200 {
            let d = policy.delay(forAttempt: attempt % 6 + 1, using: &a)
            #expect(d >= .zero && d <= policy.ceiling(forAttempt: attempt % 6 + 1))
            #expect(d == policy.delay(forAttempt: attempt % 6 + 1, using: &b))
            distinct.insert(d)
        }
        #expect(distinct.count > 50)
    }

    @Test func attemptLimit() {
        #expect(RetryPolicy.none.allowsAttempt(after: 0))
        #expect(!RetryPolicy.none.allowsAttempt(after: 1))
        #expect(RetryPolicy.standard.allowsAttempt(after: 10_000))
    }

    @Test func healthFollowsConsecutiveFailures() {
        var tracker = HealthTracker()
        #expect(tracker.recordFailure() == nil)
        #expect(tracker.recordFailure() == nil)
        #expect(tracker.recordFailure() == .degraded)
        for _ in 4...9 { #expect(tracker.recordFailure() == nil) }
        #expect(tracker.recordFailure() == .unhealthy)
        #expect(tracker.health.recoverySuggestion != nil)
        #expect(tracker.recordSuccess() == .healthy)
        #expect(tracker.consecutiveFailures == 0)
        #expect(tracker.recordSuccess() == nil)
    }

    @Test func strategiesPickChannels() {
        #expect(DeliveryStrategy.messageWithUserInfoFallback.channel(reachable: true) == .message)
        #expect(DeliveryStrategy.messageWithUserInfoFallback.channel(reachable: false) == .userInfo)
        #expect(DeliveryStrategy.messageWithContextFallback.channel(reachable: false) == .applicationContext)
        #expect(DeliveryStrategy.messageOnly.channel(reachable: false) == nil)
        #expect(DeliveryStrategy.userInfoOnly.channel(reachable: true) == .userInfo)
        #expect(DeliveryStrategy.contextOnly.channel(reachable: true) == .applicationContext)
    }

    @Test func sizeLimitsMatchWatchConnectivity() {
        #expect(throws: Never.self) { try SessionLimits.check(65_536, on: .message) }
        #expect(throws: WatchLinkError.self) { try SessionLimits.check(65_537, on: .message) }
        #expect(throws: WatchLinkError.self) { try SessionLimits.check(65_537, on: .userInfo) }
        #expect(throws: Never.self) { try SessionLimits.check(262_144, on: .applicationContext) }
        #expect(throws: WatchLinkError.self) { try SessionLimits.check(262_145, on: .applicationContext) }
    }
}
