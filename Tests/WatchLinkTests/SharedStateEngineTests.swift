import Foundation
import Testing

@testable import WatchLink

@Suite struct SharedStateEngineTests {
    typealias H = EngineHarness

    func entry(_ value: String, origin: DeviceOrigin, phone: UInt64, watch: UInt64, at: Int64, id: UInt8) -> StateEntry {
        StateEntry(
            value: Data(value.utf8),
            version: StateVersion(
                sequenceNumber: origin == .phone ? phone : watch, timestamp: WatchTimestamp(milliseconds: at), origin: origin,
                updateID: UUID.fromBytes([UInt8](repeating: id, count: 16)), phoneCounter: phone, watchCounter: watch))
    }

    @Test func versionsCompareCausally() {
        let a = entry("a", origin: .phone, phone: 1, watch: 0, at: 1, id: 1).version
        let b = entry("b", origin: .phone, phone: 2, watch: 0, at: 2, id: 2).version
        let c = entry("c", origin: .watch, phone: 1, watch: 1, at: 3, id: 3).version
        let d = entry("d", origin: .watch, phone: 0, watch: 1, at: 0, id: 4).version
        #expect(a.compare(to: b) == .older)
        #expect(b.compare(to: a) == .newer)
        #expect(a.compare(to: a) == .same)
        #expect(b.compare(to: c) == .concurrent)
        #expect(a.compare(to: d) == .concurrent)
    }

    @Test(arguments: [
        (0, "late"), (1, "early"), (2, "phone"), (3, "watch"), (4, "phone"),
    ])
    func resolutionIsSymmetricAndFollowsTheStrategy(strategyIndex: Int, expected: String) {
        let strategies: [StateResolution] = [.latestWins, .earliestWins, .iOSWins, .watchOSWins, .highestSequenceWins]
        let phoneSide = entry(
            strategyIndex == 0 ? "early" : (strategyIndex == 1 ? "early" : "phone"), origin: .phone, phone: 3, watch: 0, at: 100,
            id: 1)
        let watchSide = entry(strategyIndex <= 1 ? "late" : "watch", origin: .watch, phone: 0, watch: 1, at: 200, id: 2)
        let strategy = strategies[strategyIndex]
        let one = strategy.resolve(phoneSide, watchSide)
        let two = strategy.resolve(watchSide, phoneSide)
        #expect(one == two)
        #expect(String(decoding: one.value, as: UTF8.self) == expected)
        #expect(one.version.phoneCounter == 3 && one.version.watchCounter == 1)
    }

    @Test func customMergeSeesPhoneThenWatch() {
        let merge = StateResolution.custom { phone, watch in
            Data((String(decoding: phone, as: UTF8.self) + "+" + String(decoding: watch, as: UTF8.self)).utf8)
        }
        let p = entry("p", origin: .phone, phone: 1, watch: 0, at: 1, id: 1)
        let w = entry("w", origin: .watch, phone: 0, watch: 1, at: 1, id: 2)
        #expect(merge.resolve(p, w) == merge.resolve(w, p))
        #expect(String(decoding: merge.resolve(w, p).value, as: UTF8.self) == "p+w")
    }

    @Test func localUpdateIsDurableBeforeItIsPublishedAndCoalesced() {
        var phone = H.engine(.phone)
        let first = phone.updateState("k", value: Data("1".utf8), now: H.t0)
        #expect({ if case .persist(.state) = first[0] { true } else { false } }())
        #expect(first[1] == .sync)
        #expect(H.sends(first).isEmpty)
        _ = phone.updateState("k", value: Data("2".utf8), now: H.t0.advanced(by: .milliseconds(10)))
        let published = phone.tick(now: phone.nextWakeup!)
        let contexts = H.frames(published).compactMap { if case .context(let c) = $0 { c } else { nil } }
        #expect(contexts.count == 1)
        #expect(contexts.first?.states["k"]?.value == Data("2".utf8))
        #expect(phone.isUnconfirmed("k"))
    }

    @Test func updatesBeforeActivationAreSentAfter() {
        var phone = H.engine(.phone, activated: false, reachable: false)
        _ = phone.updateState("k", value: Data("1".utf8), now: H.t0)
        #expect(H.sends(phone.tick(now: H.t0.advanced(by: .seconds(1)))).isEmpty)
        let activated = phone.activate(now: H.t0.advanced(by: .seconds(2)))
        #expect(H.sends(activated).map(\.0) == [.applicationContext])
    }

    @Test func olderRemoteVersionIsNeverApplied() {
        var watch = H.engine(.watch)
        let newer = entry("new", origin: .phone, phone: 2, watch: 0, at: 2, id: 2)
        let older = entry("old", origin: .phone, phone: 1, watch: 0, at: 9, id: 1)
        _ = watch.receive(WireCodec.encode(.context(WireContext(states: ["k": newer]))), on: .applicationContext, now: H.t0)
        let stale = watch.receive(
            WireCodec.encode(.context(WireContext(states: ["k": older]))), on: .applicationContext, now: H.t0)
        #expect(watch.stateEntry("k") == newer)
        #expect(!stale.contains { if case .stateChanged = $0 { true } else { false } })
    }

    @Test func concurrentUpdatesConvergeAndDistinctKeysStayApart() {
        var pair = EnginePair()
        pair.phone.registerState("score", resolution: .highestSequenceWins)
        pair.watch.registerState("score", resolution: .highestSequenceWins)
        pair.deliver(pair.phone.updateState("score", value: Data("1".utf8), now: pair.now), from: .phone)
        pair.deliver(pair.phone.updateState("score", value: Data("2".utf8), now: pair.now), from: .phone)
        pair.deliver(pair.watch.updateState("score", value: Data("9".utf8), now: pair.now), from: .watch)
        pair.deliver(pair.watch.updateState("name", value: Data("\"w\"".utf8), now: pair.now), from: .watch)
        for _ in 0..<20 { pair.advance(100) }
        #expect(pair.phone.stateEntries == pair.watch.stateEntries)
        #expect(pair.phone.stateEntry("score")?.value == Data("2".utf8))
        #expect(pair.phone.stateEntry("name")?.value == Data("\"w\"".utf8))
        #expect(!pair.phone.hasUnconfirmedState && !pair.watch.hasUnconfirmedState)
    }
}
