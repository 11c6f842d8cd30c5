import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

/// Exactly once does not lean on the receiver's clock: the inbox keeps a finished request until
/// its own deadline (the sender's) plus the retention has passed on the receiver's clock; a
/// request the receiver's clock already sees past its deadline is refused, not run; and once
/// pruning forgot an entry, any request with a deadline no later than the forgotten one's is
/// refused (the horizon, kept in the log). So a receiver restarted with its clock moved back keeps
/// the entry longer, one moved forward refuses the duplicate, and one that ran ahead, forgot, and
/// moved back refuses it too; none runs it twice.
@Suite("WatchLink: a receiver restarted with its clock moved runs nothing twice")
struct ClockJumpTests {
    static let t0 = EngineHarness.t0

    /// A watch that ran and finished `requests`, and the records it synced.
    static func finished(_ requests: [WireRequest]) -> (records: [DurableRecord], answers: [String: Data]) {
        var watch = EngineHarness.engine(.watch)
        var records: [DurableRecord] = []
        var answers: [String: Data] = [:]
        for request in requests {
            let received = watch.receive(WireCodec.encode(.request(request)), on: .userInfo, now: t0)
            records += EngineHarness.records(received)
            for call in EngineHarness.runs(received) {
                let finished = watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(call.payload),
                    now: t0.advanced(by: .milliseconds(5)))
                records += EngineHarness.records(finished)
                answers[call.idempotencyKey] = call.payload
            }
        }
        return (records, answers)
    }

    /// A watch restarted from `records` with its clock a day ahead, checking for compaction after
    /// every record, that then ran and finished 20 requests; it, its log (the recovery's snapshot
    /// and every record after it) and whether any batch asked for a compaction.
    static func ranAhead(from records: [DurableRecord]) -> (engine: LinkEngine, log: [DurableRecord], compacted: Bool) {
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 1
        var ahead = LinkEngine(origin: .watch, configuration: configuration, random: SeededRandom(seed: 8))
        let later = t0.advanced(by: .seconds(86_400))
        _ = ahead.recover(from: records, receivedContext: nil, now: later)
        _ = ahead.activate(now: later)
        _ = ahead.setReachable(true, now: later)
        var log = ahead.snapshot(now: later)
        var compacted = false
        for n in 0..<20 {
            var request = EngineHarness.request(2, key: "later-\(n)")
            request.requestID = UUID()
            request.deadline = later.advanced(by: .seconds(30))
            var actions = ahead.receive(WireCodec.encode(.request(request)), on: .userInfo, now: later)
            for call in EngineHarness.runs(actions) {
                actions += ahead.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(call.payload), now: later)
            }
            compacted = compacted || actions.contains(.compact)
            log += EngineHarness.records(actions)
        }
        return (ahead, log, compacted)
    }

    static func restarted(_ records: [DurableRecord], at now: WatchTimestamp) -> LinkEngine {
        var engine = LinkEngine(origin: .watch, configuration: LinkEngine.Configuration(), random: SeededRandom(seed: 7))
        _ = engine.recover(from: records, receivedContext: nil, now: now)
        _ = engine.activate(now: now)
        _ = engine.setReachable(true, now: now)
        return engine
    }

    @Test(
        "a duplicate after a restart is answered from the inbox or refused, whichever way the clock moved",
        arguments: [-86_400_000, -3_600_000, -1, 0, 1, 25_000, 89_000, 3_600_000, 86_400_000] as [Int64])
    func duplicateAfterRestart(jump: Int64) {
        let requests = (1...3).map { EngineHarness.request($0, key: "pay-\($0)") }
        let (records, answers) = Self.finished(requests)
        #expect(answers.count == 3)
        let now = Self.t0.advanced(by: .milliseconds(jump))
        var watch = Self.restarted(records, at: now)
        for request in requests {
            // The sender lost the answer (or its acknowledgement never reached the log) and sends again.
            let again = watch.receive(WireCodec.encode(.request(request)), on: .userInfo, now: now)
            #expect(EngineHarness.runs(again).isEmpty, "jump \(jump) ms ran \(request.idempotencyKey) again")
            let responses = EngineHarness.frames(again).compactMap { frame -> WireResponse? in
                if case .response(let response) = frame { response } else { nil }
            }
            #expect(responses.count == 1, "jump \(jump) ms: \(responses)")
            if case .success(let data) = responses.first?.outcome {
                #expect(data == answers[request.idempotencyKey])
            } else {
                // NB: only a clock that already sees the request past its deadline may refuse it.
                #expect(now > request.deadline, "jump \(jump) ms: \(String(describing: responses.first?.outcome))")
            }
        }
    }

    @Test("a clock moved back keeps entries through the pruning that thousands of later requests set off")
    func pruningAfterAClockMovedBack() {
        let first = EngineHarness.request(1, key: "pay-1")
        let (records, _) = Self.finished([first])
        let now = Self.t0.advanced(by: .seconds(-3600))
        var watch = Self.restarted(records, at: now)
        // NB: enough requests to pass the inbox's pruning threshold (1,024) twice.
        for n in 0..<2_500 {
            var request = EngineHarness.request(2, durable: false, key: "later-\(n)")
            request.requestID = UUID()
            request.deadline = now.advanced(by: .seconds(30))
            let received = watch.receive(WireCodec.encode(.request(request)), on: .message, now: now)
            for call in EngineHarness.runs(received) {
                _ = watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(call.payload), now: now)
            }
        }
        let again = watch.receive(WireCodec.encode(.request(first)), on: .userInfo, now: now)
        #expect(EngineHarness.runs(again).isEmpty)
    }

    @Test("a clock that ran ahead and pruned, with the log not yet compacted, then moved back: the request is answered, not run")
    func aheadPrunedNotCompactedThenBack() throws {
        let first = EngineHarness.request(1, key: "pay-1")
        let (records, answers) = Self.finished([first])
        // NB: the log as the store holds it: the recovery's compaction wrote the snapshot, then the
        // records of every batch after it; pay-1 is pruned at the first check, and no later check
        // finds enough garbage to compact (each request leaves two records, one kept).
        let (ahead, log, compacted) = Self.ranAhead(from: records)
        #expect(!compacted)
        #expect(ahead.compactionChecks >= 1)
        // NB: pay-1's records are still in the log, so a restart has its entry again, and answers a
        // duplicate with its result.
        let back = Self.t0.advanced(by: .seconds(10))
        var watch = Self.restarted(log, at: back)
        let again = watch.receive(WireCodec.encode(.request(first)), on: .userInfo, now: back)
        #expect(EngineHarness.runs(again).isEmpty)
        let answered = EngineHarness.frames(again).compactMap { frame -> Data? in
            if case .response(let response) = frame, case .success(let data) = response.outcome { data } else { nil }
        }
        #expect(answered == [answers["pay-1"]])
    }

    @Test("a clock that ran ahead, pruned and compacted, then moved back: the forgotten request is refused, not run")
    func aheadThenBack() throws {
        let first = EngineHarness.request(1, key: "pay-1")
        let (records, _) = Self.finished([first])
        var (ahead, _, _) = Self.ranAhead(from: records)
        let later = Self.t0.advanced(by: .seconds(86_400))
        // NB: checked after every record (a threshold of 1), so pay-1 was pruned at once; the
        // snapshot is what the next compaction writes, whenever the log has grown enough for one.
        #expect(ahead.compactionChecks >= 1)
        let snapshot = ahead.snapshot(now: later)
        #expect(
            !snapshot.contains {
                if case .inboxFinished(let response, _) = $0 { response.idempotencyKey == "pay-1" } else { false }
            })
        #expect(snapshot.contains { if case .inboxHorizon = $0 { true } else { false } })
        // NB: the horizon survives the record codec as every record does.
        let reloaded = try FileStore.decodeLog(FileStore.frame(snapshot))
        #expect(reloaded == snapshot)

        let back = Self.t0.advanced(by: .seconds(10))
        var watch = Self.restarted(reloaded, at: back)
        let again = watch.receive(WireCodec.encode(.request(first)), on: .userInfo, now: back)
        #expect(EngineHarness.runs(again).isEmpty)
        let refused = EngineHarness.frames(again).compactMap { frame -> WatchLinkError? in
            if case .response(let response) = frame, case .failure(let error) = response.outcome { error } else { nil }
        }
        // NB: not `expired` (which says it did not run): it may have, so the answer says so.
        #expect(refused.map(\.code) == [.outcomeUnknown])
        // A new request from the sender is still run: the horizon is the forgotten request's deadline,
        // on the sender's clock, not the day this device's clock ran ahead.
        var fresh = EngineHarness.request(3, key: "fresh")
        fresh.deadline = back.advanced(by: .seconds(30))
        #expect(EngineHarness.runs(watch.receive(WireCodec.encode(.request(fresh)), on: .userInfo, now: back)).count == 1)
    }
}
