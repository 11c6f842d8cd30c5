import PWAKitCore
import PWAKitMiniApps
import Testing

@Suite("Ready watch")
struct ReadyWatchTests {
    let first = PageLoadID(rawValue: 7)
    let second = PageLoadID(rawValue: 8)
    let stale = PageLoadID(rawValue: 6)

    @Test("ready from the release's own document confirms it")
    func confirms() {
        var watch = ReadyWatch(deadline: .seconds(5))
        #expect(watch.handle(.documentLoaded(first)) == .startDeadline(.seconds(5)))
        #expect(watch.handle(.ready(first)) == .confirm)
        #expect(watch.state == .confirmed)
        #expect(watch.handle(.deadlineElapsed) == .none)
        #expect(watch.handle(.webProcessTerminated) == .none)
    }

    @Test("a ready signal from another page load never vouches for the release")
    func staleReady() {
        var watch = ReadyWatch()
        #expect(watch.handle(.ready(stale)) == .none)
        _ = watch.handle(.documentLoaded(first))
        #expect(watch.handle(.ready(stale)) == .none)
        #expect(watch.handle(.deadlineElapsed) == .rollBack(reason: "it did not report ready within 10.0 seconds"))
        #expect(watch.handle(.ready(first)) == .none)
    }

    @Test("a reload rebinds the signal to the newest document without restarting the deadline")
    func reload() {
        var watch = ReadyWatch()
        _ = watch.handle(.documentLoaded(first))
        #expect(watch.handle(.documentLoaded(second)) == .none)
        #expect(watch.handle(.ready(first)) == .none)
        #expect(watch.handle(.ready(second)) == .confirm)
    }

    @Test("a crashed web process rolls back; a deadline before any document does nothing")
    func crash() {
        var watch = ReadyWatch()
        #expect(watch.handle(.deadlineElapsed) == .none)
        #expect(watch.handle(.webProcessTerminated) == .rollBack(reason: "its web process ended before it reported ready"))
        #expect(watch.handle(.documentLoaded(first)) == .none)
    }
}
