import Foundation
import Testing

@testable import WatchLink

/// A settle batch keeps its records first, in the order added, then one sync, then its
/// notifications in the order added, however the two are interleaved as it is built.
@Suite struct SettleBatchTests {
    let first = UUID()
    let second = UUID()

    @Test func recordsGoAheadOfOneSyncAndNotificationsFollowInOrder() {
        var batch = SettleBatch()
        batch.notify(.accepted(first))
        batch.persist(.orderedWatermark(1))
        batch.notify(.event(.requestAccepted(first)))
        batch.persist(.orderedNextSequence(2))
        batch.notify(.accepted(second))
        batch.persist(.boot(3))
        #expect(
            batch.actions == [
                .persist(.orderedWatermark(1)), .persist(.orderedNextSequence(2)), .persist(.boot(3)), .sync,
                .accepted(first), .event(.requestAccepted(first)), .accepted(second),
            ])
    }

    @Test func withoutRecordsThereIsNoSync() {
        var batch = SettleBatch()
        #expect(batch.actions.isEmpty)
        batch.notify(.accepted(first))
        batch.notify(.event(.requestAccepted(first)))
        #expect(batch.actions == [.accepted(first), .event(.requestAccepted(first))])
    }

    @Test func takingLeavesTheBatchEmptyAndAppendsTheExtraActions() {
        var batch = SettleBatch()
        batch.persist(.orderedWatermark(7))
        batch.notify(.accepted(first))
        let taken = batch.take(then: [.accepted(second)])
        #expect(taken == [.persist(.orderedWatermark(7)), .sync, .accepted(first), .accepted(second)])
        #expect(batch.actions.isEmpty)
        // A record added after the take starts a new sync of its own.
        batch.persist(.orderedWatermark(8))
        #expect(batch.actions == [.persist(.orderedWatermark(8)), .sync])
    }

    @Test func aBatchLargerThanItsReservedRoomKeepsTheOrder() {
        var batch = SettleBatch()
        let ids = (0..<20).map { _ in UUID() }
        for (n, id) in ids.enumerated() {
            batch.persist(.orderedWatermark(UInt64(n)))
            batch.notify(.accepted(id))
        }
        let records = (0..<20).map { LinkAction.persist(.orderedWatermark(UInt64($0))) }
        #expect(batch.actions == records + [.sync] + ids.map { .accepted($0) })
    }
}
