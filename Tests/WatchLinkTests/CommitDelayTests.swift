import Testing

@testable import WatchLink

/// The sync loop's commit delay: when it waits for a group to gather, for how many records, and
/// how long at most.
@Suite struct CommitDelayTests {
    @Test func aPolicyThatHasSeenNoSyncNeverWaits() {
        let delay = CommitDelay()
        #expect(delay.gather(pending: 1) == nil)
        #expect(delay.gather(pending: 1_000) == nil)
    }

    @Test func smallGroupsNeverMakeTheNextSyncWait() {
        var delay = CommitDelay()
        delay.synced(records: CommitDelay.minimumGroup - 1, took: .microseconds(400))
        #expect(delay.gather(pending: 1) == nil)
        // NB: a lone sender's groups are one or two records: it never waits.
        delay.synced(records: 1, took: .microseconds(400))
        #expect(delay.gather(pending: 1) == nil)
    }

    @Test func fewerThanHalfOfTheLastGroupWaitForAsManyAsItHeld() throws {
        var delay = CommitDelay()
        delay.synced(records: 30, took: .microseconds(400))
        let gather = try #require(delay.gather(pending: 14))
        #expect(gather.records == 30)
        #expect(gather.wait == .microseconds(200))
        #expect(delay.gather(pending: 15) == nil, "half of the last group syncs at once")
        #expect(delay.gather(pending: 40) == nil)
        #expect(delay.gather(pending: 0) == nil, "nothing to gather around")
    }

    @Test func theWaitFollowsAMovingAverageOfSyncTimesAndIsCapped() throws {
        var delay = CommitDelay()
        delay.synced(records: 20, took: .microseconds(400))
        delay.synced(records: 20, took: .microseconds(800))
        // NB: each new sync weighs a quarter: (3 × 400 + 800) / 4 = 500, and the wait is half of it.
        #expect(delay.syncTime == .microseconds(500))
        #expect(try #require(delay.gather(pending: 2)).wait == .microseconds(250))
        for _ in 0..<40 { delay.synced(records: 20, took: .milliseconds(50)) }
        #expect(try #require(delay.gather(pending: 2)).wait == CommitDelay.maximumWait)
    }

    @Test func aSyncThatWroteNothingChangesNothing() {
        var delay = CommitDelay()
        delay.synced(records: 30, took: .microseconds(400))
        let before = delay
        delay.synced(records: 0, took: .milliseconds(30))
        #expect(delay == before)
    }

    @Test func theGoalFollowsTheLastGroupAsTheLoadFallsAway() throws {
        var delay = CommitDelay()
        delay.synced(records: 64, took: .microseconds(400))
        #expect(try #require(delay.gather(pending: 10)).records == 64)
        // NB: the senders went away: the wait ran out with 10 records, the next goal is 10 and 4
        // pending do not wait.
        delay.synced(records: 10, took: .microseconds(400))
        #expect(try #require(delay.gather(pending: 4)).records == 10)
        delay.synced(records: 4, took: .microseconds(400))
        #expect(delay.gather(pending: 1) == nil)
    }
}
