import PWAKitTesting
import Testing
import WatchLink

@Suite struct ManualClockTests {
    @Test func sleepersWakeOnlyWhenAdvancedPastTheirDeadline() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await task.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func cancelledSleeperThrows() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
        while clock.sleeperCount == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
