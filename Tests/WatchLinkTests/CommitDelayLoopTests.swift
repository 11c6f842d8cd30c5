import Foundation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

@testable import WatchLink

/// The sync loop's commit delay, through a connection: a small group waits for the appends that
/// fill it, and is synced once the wait runs out when none come.
@Suite struct CommitDelayLoopTests {
    struct Note: WatchFireAndForget {
        var body: String
    }

    /// A store that syncs on the connection's sync queue and records how many records each sync wrote.
    final class CountingStore: DurableStore {
        let inner = InMemoryStore()
        /// Records appended and not yet taken by a sync, and the size of every sync that wrote any.
        let state = Mutex((buffered: 0, groups: [Int]()))

        var syncsInBackground: Bool { true }
        var bufferedRecords: Int { state.withLock { $0.buffered } }
        var groups: [Int] { state.withLock { $0.groups } }

        func load() -> [DurableRecord] { inner.load() }
        func append(_ records: [DurableRecord]) throws(WatchLinkError) {
            inner.append(records)
            state.withLock { $0.buffered += records.count }
        }
        func sync() throws(WatchLinkError) { _ = try syncCountingRecords() }
        func syncCountingRecords() throws(WatchLinkError) -> Int {
            inner.sync()
            return state.withLock { state in
                let written = state.buffered
                state.buffered = 0
                if written > 0 { state.groups.append(written) }
                return written
            }
        }
        func replace(with records: [DurableRecord]) throws(WatchLinkError) {
            inner.replace(with: records)
            state.withLock { $0.buffered = 0 }
        }
    }

    static func phone(_ store: CountingStore) -> WatchConnection {
        let (session, _) = InMemorySession.makePair()
        return WatchConnection(
            origin: .phone, session: session, durableStore: store, clock: ManualClock(),
            wallClockAtStart: WatchTimestamp(milliseconds: 1_000_000), random: SeededRandom(seed: 1))
    }

    /// A started phone on a fresh ``CountingStore`` whose sync loop acts as if its last sync wrote
    /// 16 records and syncs took two hours, waiting at most `waitLimit`; with the syncs its start made.
    static func startedPhone(waitLimit: Duration) async throws -> (WatchConnection, CountingStore, before: Int) {
        let store = CountingStore()
        let phone = Self.phone(store)
        try await phone.start()
        phone.syncProgress.withLock {
            $0.delay = CommitDelay(lastGroup: 16, syncTime: .seconds(7_200), waitLimit: waitLimit)
        }
        return (phone, store, store.groups.count)
    }

    /// Waits (yielding) until the connection's sync loop waits for a group to gather.
    static func waitForTheLoopToGather(_ phone: WatchConnection) async {
        for _ in 0..<10_000_000 where phone.syncProgress.withLock({ $0.gatherGoal }) == nil { await Task.yield() }
    }

    @Test(
        "a small group waits for the appends that fill it, and an append that fills it ends the wait",
        .timeLimit(.minutes(1)))
    func anAppendThatFillsTheGroupEndsTheWait() async throws {
        // NB: the loop may wait an hour for 16 records, so only the append that brings the 16th can
        // end its wait within the test's time limit.
        let (phone, store, before) = try await Self.startedPhone(waitLimit: .seconds(3_600))
        let first = Task { _ = try await phone.post(Note(body: "0"), strategy: .userInfoOnly) }
        // NB: the rest are posted once the loop waits, so none of them can reach it before it decides.
        await Self.waitForTheLoopToGather(phone)
        #expect(phone.syncProgress.withLock { $0.gatherGoal } == 16)
        #expect(store.bufferedRecords == 1)
        #expect(store.groups.count == before, "nothing synced while the group gathers")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1..<16 { group.addTask { _ = try await phone.post(Note(body: "\(n)"), strategy: .userInfoOnly) } }
            try await group.waitForAll()
        }
        try await first.value
        // NB: without the delay the first post's record would have gone alone (1, then the rest).
        #expect(Array(store.groups.dropFirst(before)) == [16])
        await phone.stop()
    }

    @Test("a small group that nothing fills is synced once the wait runs out", .timeLimit(.minutes(1)))
    func aGroupNothingFillsIsSyncedWhenTheWaitRunsOut() async throws {
        let (phone, store, before) = try await Self.startedPhone(waitLimit: .milliseconds(50))
        _ = try await phone.post(Note(body: "alone"), strategy: .userInfoOnly)
        #expect(Array(store.groups.dropFirst(before)) == [1])
        await phone.stop()
    }
}
