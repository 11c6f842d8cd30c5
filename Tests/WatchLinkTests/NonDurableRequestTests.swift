import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

/// Non-durable requests leave no trace on disk, so they are addressed to one receiver
/// incarnation: a restarted receiver refuses them unrun and the sender never gets a second run.
@Suite struct NonDurableRequestTests {
    typealias H = EngineHarness

    /// A receiver engine as it is after a restart from `records`, and the log it leaves on disk.
    static func boot(_ records: [DurableRecord], seed: UInt64 = 2) -> (LinkEngine, [DurableRecord]) {
        var engine = LinkEngine(origin: .watch, random: SeededRandom(seed: seed))
        let recovered = engine.recover(from: records, receivedContext: nil, now: H.t0)
        let snapshot = recovered.first == .compact ? engine.snapshot(now: H.t0) : []
        _ = engine.activate(now: H.t0)
        _ = engine.setReachable(true, now: H.t0)
        return (engine, snapshot)
    }

    static func restarted(_ records: [DurableRecord]) -> LinkEngine { boot(records).0 }

    /// Delivers every send in `actions` to `engine`, returning what it did.
    static func deliver(_ actions: [LinkAction], to engine: inout LinkEngine, now: WatchTimestamp) -> [LinkAction] {
        H.sends(actions).flatMap { engine.receive($0.1, on: $0.0, now: now) }
    }

    @Test func firstContactIsReaddressedAndRunsOnce() {
        var phone = H.engine(.phone)
        var watch = Self.restarted([])
        let submitted = phone.submit(
            H.request(1, durable: false), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        guard case .request(let unaddressed)? = H.frames(submitted).first else { Issue.record("no request"); return }
        #expect(unaddressed.target == nil)
        let refused = Self.deliver(submitted, to: &watch, now: H.t0)
        #expect(H.runs(refused).isEmpty)
        let resent = Self.deliver(refused, to: &phone, now: H.t0)
        guard case .request(let addressed)? = H.frames(resent).first else { Issue.record("not re-sent"); return }
        #expect(addressed.target == watch.incarnation)
        let ran = Self.deliver(resent, to: &watch, now: H.t0)
        #expect(H.runs(ran).count == 1)
        #expect(!ran.contains { if case .persist = $0 { true } else { false } })
    }

    @Test func restartedReceiverNeverRunsARetriedRequestTwice() throws {
        var phone = H.engine(.phone)
        var (watch, disk) = Self.boot([])
        // Learn the watch's incarnation with a first request.
        let warmup = phone.submit(H.request(9, durable: false), strategy: .messageOnly, retry: .standard, now: H.t0)
        var inFlight = Self.deliver(warmup, to: &watch, now: H.t0)
        while !H.sends(inFlight).isEmpty || !H.runs(inFlight).isEmpty {
            var next: [LinkAction] = []
            for call in H.runs(inFlight) {
                next += watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("0".utf8)), now: H.t0)
            }
            let replies = Self.deliver(inFlight, to: &phone, now: H.t0)
            next += Self.deliver(replies, to: &watch, now: H.t0) + Self.deliver(next, to: &phone, now: H.t0)
            inFlight = next
        }
        #expect(phone.peerIncarnation == watch.incarnation)

        let request = H.request(1, durable: false)
        let submitted = phone.submit(request, strategy: .messageOnly, retry: .standard, now: H.t0)
        let started = Self.deliver(submitted, to: &watch, now: H.t0)
        #expect(H.runs(started).count == 1)
        // The watch crashes after running the handler; nothing about the request reached its disk.
        disk += H.records(started)
        var after = Self.restarted(disk)
        #expect(after.incarnation != watch.incarnation)
        let retry = phone.tick(now: try #require(phone.nextWakeup))
        let answer = Self.deliver(retry, to: &after, now: H.t0)
        #expect(H.runs(answer).isEmpty)
        let settled = Self.deliver(answer, to: &phone, now: H.t0)
        let outcome = try #require(H.completions(settled).first { $0.0 == request.requestID })
        #expect(H.errorCode(outcome.1) == .outcomeUnknown)
        #expect(phone.pendingCount == 0)
    }

    @Test func everyRecoveryIsANewIncarnationEvenWithTheSameSeed() {
        var first = LinkEngine(origin: .watch, random: SeededRandom(seed: 7))
        let boot = first.recover(from: [], receivedContext: nil, now: H.t0)
        guard boot.first == .compact else { Issue.record("no snapshot"); return }
        let snapshot = first.snapshot(now: H.t0)
        var second = LinkEngine(origin: .watch, random: SeededRandom(seed: 7))
        _ = second.recover(from: snapshot, receivedContext: nil, now: H.t0)
        #expect(second.incarnation.boot == first.incarnation.boot + 1)
        #expect(second.incarnation != first.incarnation)
    }

    @Test func durableRequestsIgnoreIncarnations() {
        var watch = Self.restarted([])
        let actions = watch.receive(WireCodec.encode(.request(H.request(4))), on: .message, now: H.t0)
        #expect(H.runs(actions).count == 1)
    }

    @Test func aLongNonDurableRunKeepsTheInboxBounded() {
        var pair = EnginePair()
        var largest = 0
        for n in 0..<12_000 {
            let request = WireRequest(
                typeKey: WatchTypeKey("test.echo"), payload: Data("{}".utf8), requestID: UUID(), idempotencyKey: "run-\(n)",
                isDurable: false, createdAt: pair.now, deadline: pair.now.advanced(by: .seconds(5)))
            pair.deliver(pair.phone.submit(request, strategy: .messageOnly, retry: .standard, now: pair.now), from: .phone)
            largest = max(largest, pair.watch.inbox.count)
            pair.advance(100)
        }
        #expect(pair.runs == 12_000)
        // Entries live 5 s to their deadline and 60 s after it: about 650 at 10 a second.
        #expect(largest < 2 * 1024, "the inbox reached \(largest) entries")
        #expect(!pair.watch.inbox.isEmpty)
    }
}
