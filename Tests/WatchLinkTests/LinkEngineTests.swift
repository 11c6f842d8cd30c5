import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

@Suite struct LinkEngineTests {
    typealias H = EngineHarness

    @Test func durableSubmitPersistsAndSyncsBeforeAcceptingAndSending() {
        var phone = H.engine(.phone)
        let actions = phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        guard actions.count >= 4 else { Issue.record("too few actions: \(actions)"); return }
        #expect({ if case .persist(.outboxAdded) = actions[0] { true } else { false } }())
        #expect(actions[1] == .sync)
        #expect(actions[2] == .accepted(H.request(1).requestID))
        #expect(H.sends(actions).map(\.0) == [.message])
        #expect(phone.pendingCount == 1)
    }

    @Test func requestsWaitForActivation() {
        var phone = H.engine(.phone, activated: false, reachable: false)
        let before = phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        #expect(H.sends(before).isEmpty)
        #expect(before.contains(.accepted(H.request(1).requestID)))
        let after = phone.activate(now: H.t0.advanced(by: .milliseconds(5)))
        #expect(H.sends(after).map(\.0) == [.userInfo])
    }

    @Test func receiverRunsOnceAndAnswersDuplicatesFromTheInbox() throws {
        var watch = H.engine(.watch)
        let data = WireCodec.encode(.request(H.request(7)))
        let first = watch.receive(data, on: .message, now: H.t0)
        #expect({ if case .persist(.inboxStarted) = first[0] { true } else { false } }())
        #expect(first[1] == .sync)
        #expect(H.runs(first).count == 1)
        #expect(H.runs(watch.receive(data, on: .userInfo, now: H.t0)).isEmpty)
        let call = try #require(H.runs(first).first)
        let finished = watch.handlerFinished(
            idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("42".utf8)), now: H.t0)
        #expect({ if case .persist(.inboxFinished) = finished[0] { true } else { false } }())
        #expect(finished[1] == .sync)
        let again = watch.receive(data, on: .message, now: H.t0)
        #expect(H.runs(again).isEmpty)
        guard case .response(let response)? = H.frames(again).first else { Issue.record("no response"); return }
        #expect(response.value == Data("42".utf8))
    }

    /// The inbox keeps each key with its hash computed once (``InboxKey``); keys still compare as
    /// strings do: canonically equivalent spellings are one key, and distinct keys never share an entry.
    @Test func inboxKeysCompareAsStringsDo() throws {
        var watch = H.engine(.watch)
        let composed = H.request(1, durable: false, key: "caf\u{E9}")
        var decomposed = H.request(2, durable: false, key: "cafe\u{301}")
        decomposed.target = watch.incarnation
        var first = composed
        first.target = watch.incarnation
        let ran = watch.receive(WireCodec.encode(.request(first)), on: .message, now: H.t0)
        let call = try #require(H.runs(ran).first)
        _ = watch.handlerFinished(
            idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("1".utf8)), now: H.t0)
        let again = watch.receive(WireCodec.encode(.request(decomposed)), on: .message, now: H.t0)
        #expect(H.runs(again).isEmpty)
        guard case .response(let response)? = H.frames(again).first else { Issue.record("no answer"); return }
        #expect(response.value == Data("1".utf8))
        // Many distinct keys, each of which runs exactly once, as the table grows past several sizes.
        var started = 0
        for n in 0..<3_000 {
            var request = H.request(n % 250 + 3, durable: false, key: "key-\(n)")
            request.requestID = UUID()
            request.target = watch.incarnation
            started += H.runs(watch.receive(WireCodec.encode(.request(request)), on: .message, now: H.t0)).count
        }
        #expect(started == 3_000)
        #expect(watch.inbox.count == 3_001)
    }

    /// A long non-durable run keeps the inbox, and its table, the same size once the retention
    /// has passed a few times: entries past their deadline and the retention are pruned, and a
    /// duplicate inside the retention is still answered from the inbox, not run again.
    @Test func aLongNonDurableRunKeepsTheInboxFlat() throws {
        var watch = H.engine(.watch)
        let retention = LinkEngine.Configuration().inboxRetention.wholeMilliseconds
        // NB: one request every 10 ms for 400 s of the engine's time, about 6.7 retentions of 60 s.
        let (count, spacing, deadline): (Int, Int64, Int64) = (40_000, 10, 1_000)
        // NB: what the retention can hold at once: every request of the last retention and deadline.
        let retained = Int((retention + deadline) / spacing) + 1
        var (largest, capacityHalfway, started) = (0, 0, 0)
        var kept: WireRequest?
        for n in 0..<count {
            let now = H.t0.advanced(by: .milliseconds(Int64(n) * spacing))
            var request = H.request(n % 250, durable: false, key: "long-\(n)")
            request.requestID = UUID()
            request.createdAt = now
            request.deadline = now.advanced(by: .milliseconds(deadline))
            request.target = watch.incarnation
            let calls = H.runs(watch.receive(WireCodec.encode(.request(request)), on: .message, now: now))
            started += calls.count
            for call in calls {
                _ = watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("1".utf8)),
                    now: now)
            }
            largest = max(largest, watch.inbox.count)
            if n == count / 2 { capacityHalfway = watch.inbox.capacity }
            // NB: 30 s before the end: past its deadline, inside the retention.
            if n == count - 3_000 { kept = request }
            // A duplicate of the request answered 30 s ago is answered from the inbox.
            if n == count - 1, let kept {
                let again = watch.receive(WireCodec.encode(.request(kept)), on: .message, now: now)
                #expect(H.runs(again).isEmpty)
                guard case .response(let response)? = H.frames(again).first else {
                    Issue.record("the duplicate was not answered")
                    return
                }
                #expect(response.value == Data("1".utf8))
            }
        }
        #expect(started == count)
        // NB: a prune runs when the inbox has doubled since the last one, so it holds at most twice
        // what the retention keeps (and at least the prune floor's worth before the first prune).
        #expect(largest <= 2 * retained + 2, "largest inbox \(largest), retention holds \(retained)")
        #expect(largest > retained, "the run outlasted the retention")
        #expect(watch.inbox.capacity == capacityHalfway, "the table stopped growing after the first retentions")
    }

    /// With no one listening (the connection turns this off), a request's accepted and settled
    /// events are not made; everything else a submission and its answer do is the same.
    @Test func requestEventsAreMadeOnlyForListeners() throws {
        func run(reporting: Bool, durable: Bool) throws -> (submitted: [LinkAction], settled: [LinkAction]) {
            var phone = H.engine(.phone)
            var watch = H.engine(.watch)
            phone.reportsRequestEvents = reporting
            // NB: a non-durable request goes to the watch's incarnation once the phone knows it.
            phone.peerIncarnation = watch.incarnation
            let submitted = phone.submit(
                H.request(1, durable: durable), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
            let (_, data) = try #require(H.sends(submitted).first)
            let call = try #require(H.runs(watch.receive(data, on: .message, now: H.t0)).first)
            let answered = watch.handlerFinished(
                idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("2".utf8)), now: H.t0)
            let (_, answer) = try #require(H.sends(answered).first)
            return (submitted, phone.receive(answer, on: .message, now: H.t0))
        }
        func isRequestEvent(_ action: LinkAction) -> Bool {
            guard case .event(let event) = action else { return false }
            return event.kind == .requestAccepted || event.kind == .requestSettled
        }
        // Durable (records, a sync, then the notifications) and not (the notifications and the send).
        for durable in [true, false] {
            let quiet = try run(reporting: false, durable: durable)
            let reported = try run(reporting: true, durable: durable)
            #expect(!quiet.submitted.contains(where: isRequestEvent) && !quiet.settled.contains(where: isRequestEvent))
            #expect(reported.submitted.filter(isRequestEvent).count == 1 && reported.settled.filter(isRequestEvent).count == 1)
            #expect(reported.submitted.filter { !isRequestEvent($0) } == quiet.submitted)
            #expect(reported.settled.filter { !isRequestEvent($0) } == quiet.settled)
            #expect(H.completions(quiet.settled).count == 1)
            let accepted = quiet.submitted.firstIndex(of: .accepted(H.request(1).requestID))
            let sent = quiet.submitted.firstIndex { if case .send = $0 { true } else { false } }
            #expect(accepted != nil && sent != nil && accepted! < sent!)
            #expect(quiet.submitted.contains(.sync) == durable)
        }
    }

    @Test func crashAfterHandlerBeforeResultSaveAnswersOutcomeUnknown() {
        var before = H.engine(.watch)
        let data = WireCodec.encode(.request(H.request(3)))
        let started = before.receive(data, on: .message, now: H.t0)
        #expect(H.runs(started).count == 1)
        // The process dies after the handler ran but before the result record was synced.
        var after = LinkEngine(origin: .watch, random: SeededRandom(seed: 5))
        _ = after.recover(from: H.records(started), receivedContext: nil, now: H.t0)
        _ = after.activate(now: H.t0)
        _ = after.setReachable(true, now: H.t0)
        let answer = after.receive(data, on: .message, now: H.t0)
        #expect(H.runs(answer).isEmpty)
        guard case .response(let response)? = H.frames(answer).first else { Issue.record("no response"); return }
        #expect(response.error?.code == .outcomeUnknown)
        #expect(answer.contains(.event(.outcomeUnknown(idempotencyKey: H.request(3).idempotencyKey))))
    }

    @Test func crashBeforeStartMarkSyncLetsTheRequestRunAfterRestart() {
        var after = LinkEngine(origin: .watch, random: SeededRandom(seed: 5))
        _ = after.recover(from: [], receivedContext: nil, now: H.t0)
        _ = after.activate(now: H.t0)
        let actions = after.receive(WireCodec.encode(.request(H.request(3))), on: .userInfo, now: H.t0)
        #expect(H.runs(actions).count == 1)
    }

    @Test func responseSettlesOnceAfterSync() {
        var pair = EnginePair()
        pair.deliver(
            pair.phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: pair.now), from: .phone
        )
        #expect(pair.runs == 1)
        #expect(pair.completed[H.request(1).requestID].flatMap { try? $0.get() } == Data("{\"n\":1}".utf8))
        #expect(pair.phone.pendingCount == 0)
    }

    @Test func lostReplyIsRetriedWithBackoffAndAnsweredFromTheInbox() {
        var phone = H.engine(.phone)
        var watch = H.engine(.watch)
        let first = phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        let delivered = watch.receive(H.sends(first)[0].1, on: .message, now: H.t0)
        let call = H.runs(delivered)[0]
        _ = watch.handlerFinished(
            idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("1".utf8)), now: H.t0)
        // The response is lost; the retry fires after the reply timeout plus jitter.
        #expect(H.sends(phone.tick(now: H.t0.advanced(by: .milliseconds(1999)))).isEmpty)
        let wake = phone.nextWakeup!
        #expect(wake >= H.t0.advanced(by: .seconds(2)) && wake <= H.t0.advanced(by: .milliseconds(2200)))
        let retry = phone.tick(now: wake)
        guard case .request(let resent)? = H.frames(retry).first else { Issue.record("no retry"); return }
        #expect(resent.attempt == 1)
        let answer = watch.receive(H.sends(retry)[0].1, on: .message, now: wake)
        #expect(H.runs(answer).isEmpty)
        let settled = phone.receive(H.sends(answer)[0].1, on: .message, now: wake)
        #expect(H.completions(settled).count == 1)
    }

    @Test func messageFailureFallsBackToUserInfo() {
        var phone = H.engine(.phone)
        let first = phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        let (channel, data) = H.sends(first)[0]
        let fallback = phone.transmitFailed(
            .request(H.request(1).requestID), channel: channel, data: data, error: WatchLinkError(.notReachable, "gone"),
            now: H.t0)
        #expect(H.sends(fallback).map(\.0) == [.userInfo])
        #expect(!phone.isReachable)
    }

    @Test func messageOnlyGivesUpWithNotReachable() {
        var phone = H.engine(.phone, reachable: false)
        let retry = RetryPolicy(initialDelay: .milliseconds(100), maximumAttempts: 2)
        let first = phone.submit(H.request(1), strategy: .messageOnly, retry: retry, now: H.t0)
        #expect(H.sends(first).isEmpty)
        var now = H.t0
        var outcome: Result<Data, WatchLinkError>?
        for _ in 0..<10 where outcome == nil {
            guard let wake = phone.nextWakeup else { break }
            now = wake
            outcome = H.completions(phone.tick(now: now)).first?.1
        }
        #expect(outcome.flatMap(H.errorCode) == .notReachable)
    }

    @Test func deadlineSettlesWithTimeout() {
        var phone = H.engine(.phone)
        _ = phone.submit(H.request(1, deadline: 5000), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        var outcome: Result<Data, WatchLinkError>?
        while outcome == nil, let wake = phone.nextWakeup {
            outcome = H.completions(phone.tick(now: wake)).first?.1
            #expect(wake <= H.t0.advanced(by: .seconds(5)))
        }
        #expect(outcome.flatMap(H.errorCode) == .timeout)
    }

    @Test func outboxOverflowDropsTheOldestAndReportsIt() {
        var configuration = LinkEngine.Configuration()
        configuration.outboxLimit = 3
        var phone = H.engine(.phone, configuration: configuration, reachable: false)
        for n in 1...3 { _ = phone.submit(H.request(n), strategy: .userInfoOnly, retry: .standard, now: H.t0) }
        let fourth = phone.submit(H.request(4), strategy: .userInfoOnly, retry: .standard, now: H.t0)
        let dropped = H.completions(fourth)
        #expect(dropped.count == 1 && dropped[0].0 == H.request(1).requestID)
        #expect(H.errorCode(dropped[0].1) == .outboxOverflow)
        #expect(fourth.contains(.event(.outboxOverflow(H.request(1).requestID))))
        #expect(phone.pendingRequestIDs == [2, 3, 4].map { H.request($0).requestID })
    }

    @Test func outboxExpiryDropsOldRequests() {
        var configuration = LinkEngine.Configuration()
        configuration.outboxExpiry = .seconds(10)
        var phone = H.engine(.phone, configuration: configuration)
        _ = phone.submit(H.request(1, deadline: 60_000), strategy: .contextOnly, retry: .standard, now: H.t0)
        let settled = H.completions(phone.tick(now: H.t0.advanced(by: .seconds(10))))
        #expect(settled.first.flatMap { H.errorCode($0.1) } == .expired)
    }

    @Test func oversizedRequestFailsImmediately() {
        var phone = H.engine(.phone)
        let big = H.request(1)
        var request = big
        request.payload = Data(repeating: 0x41, count: 70_000)
        let actions = phone.submit(request, strategy: .messageOnly, retry: .standard, now: H.t0)
        #expect(H.completions(actions).first.flatMap { H.errorCode($0.1) } == .payloadTooLarge)
        #expect(phone.pendingCount == 0)
    }

    @Test func orderedRequestsRunInSequence() throws {
        var phone = H.engine(.phone)
        var watch = H.engine(.watch)
        let sent = (1...3).map { phone.submit(H.request($0), strategy: .userInfoOnly, retry: .standard, now: H.t0) }
        let data = sent.map { H.sends($0)[0].1 }
        #expect(H.runs(watch.receive(data[2], on: .userInfo, now: H.t0)).isEmpty)
        #expect(H.runs(watch.receive(data[1], on: .userInfo, now: H.t0)).isEmpty)
        let first = watch.receive(data[0], on: .userInfo, now: H.t0)
        let firstRuns = H.runs(first)
        #expect(firstRuns.map(\.requestID) == [H.request(1).requestID])
        let next = watch.handlerFinished(
            idempotencyKey: firstRuns[0].idempotencyKey, requestID: firstRuns[0].requestID, result: .success(Data()), now: H.t0)
        #expect(H.runs(next).map(\.requestID) == [H.request(2).requestID])
    }

    @Test func floorLetsTheReceiverSkipRequestsSettledAtTheSender() {
        var watch = H.engine(.watch)
        var third = H.request(3)
        third.sequence = 3
        third.floor = 3
        let actions = watch.receive(WireCodec.encode(.request(third)), on: .userInfo, now: H.t0)
        #expect(H.runs(actions).map(\.requestID) == [third.requestID])
        var late = H.request(1)
        late.sequence = 1
        late.floor = 1
        let refused = watch.receive(WireCodec.encode(.request(late)), on: .userInfo, now: H.t0)
        #expect(H.runs(refused).isEmpty)
        guard case .response(let response)? = H.frames(refused).first else { Issue.record("no answer"); return }
        #expect(response.error?.code == .expired)
    }

    @Test(arguments: ["response", "unordered request", "context"])
    func floorOnAnyFrameSkipsTheGap(carrier: String) {
        var watch = H.engine(.watch)
        var third = H.request(3)
        third.sequence = 3
        third.floor = 1
        #expect(H.runs(watch.receive(WireCodec.encode(.request(third)), on: .userInfo, now: H.t0)).isEmpty)
        let frame: WireFrame
        switch carrier {
        case "response":
            var response = WireResponse(
                requestID: H.request(8).requestID, idempotencyKey: "elsewhere", outcome: .success(Data()), createdAt: H.t0)
            response.floor = 3
            frame = .response(response)
        case "unordered request":
            var other = H.request(9)
            other.floor = 3
            frame = .request(other)
        default:
            frame = .context(WireContext(floor: 3))
        }
        let channel: SessionChannel = carrier == "context" ? .applicationContext : .message
        let actions = watch.receive(WireCodec.encode(frame), on: channel, now: H.t0)
        #expect(H.runs(actions).first?.requestID == third.requestID)
        #expect(H.records(actions).contains(.orderedWatermark(2)))
    }

    @Test func everyOutgoingFrameCarriesTheSendersFloor() {
        var phone = H.engine(.phone)
        let ordered = phone.submit(H.request(1), strategy: .userInfoOnly, retry: .standard, now: H.t0)
        let unordered = phone.submit(H.request(2), strategy: .messageOnly, retry: .standard, now: H.t0)
        for frame in H.frames(ordered + unordered) {
            guard case .request(let request) = frame else { continue }
            #expect(request.floor == 1)
        }
        var watch = H.engine(.watch)
        let answered = watch.receive(WireCodec.encode(.request(H.request(5))), on: .message, now: H.t0)
        let runs = H.runs(answered)
        let reply = watch.handlerFinished(
            idempotencyKey: runs[0].idempotencyKey, requestID: runs[0].requestID, result: .success(Data()), now: H.t0)
        guard case .response(let response)? = H.frames(reply).first else { Issue.record("no answer"); return }
        #expect(response.floor == 1)
    }

    /// A `messageOnly` request: run in arrival order on the message channel.
    static func serial(_ n: Int, deadline: Int64 = 30_000) -> WireRequest {
        var request = H.request(n, deadline: deadline)
        request.runsInArrivalOrder = true
        return request
    }

    @Test func messageChannelRunsOneHandlerAtATimeInArrivalOrder() {
        var watch = H.engine(.watch)
        var runs: [InboundCall] = []
        for n in [1, 2, 3] { runs += H.runs(watch.receive(WireCodec.encode(.request(Self.serial(n))), on: .message, now: H.t0)) }
        #expect(runs.map(\.requestID) == [H.request(1).requestID])
        // A duplicate of a waiting request is not queued twice.
        #expect(H.runs(watch.receive(WireCodec.encode(.request(Self.serial(2))), on: .message, now: H.t0)).isEmpty)
        for n in [2, 3] {
            let finished = watch.handlerFinished(
                idempotencyKey: runs[0].idempotencyKey, requestID: runs[0].requestID, result: .success(Data()), now: H.t0)
            runs = H.runs(finished)
            #expect(runs.map(\.requestID) == [H.request(n).requestID])
        }
        // Neither are user-info requests nor messages sent with a fallback strategy held up.
        #expect(H.runs(watch.receive(WireCodec.encode(.request(H.request(4))), on: .userInfo, now: H.t0)).count == 1)
        #expect(H.runs(watch.receive(WireCodec.encode(.request(H.request(5))), on: .message, now: H.t0)).count == 1)
    }

    @Test func aHandlerPastItsDeadlineNoLongerHoldsUpTheMessageChannel() {
        var watch = H.engine(.watch)
        let slow = Self.serial(1, deadline: 100)
        let next = Self.serial(2)
        #expect(H.runs(watch.receive(WireCodec.encode(.request(slow)), on: .message, now: H.t0)).count == 1)
        let later = H.t0.advanced(by: .seconds(1))
        let second = watch.receive(WireCodec.encode(.request(next)), on: .message, now: later)
        #expect(H.runs(second).map(\.requestID) == [H.request(2).requestID])
    }

    @Test func aMessageQueuedBehindAHandlerStartsWhenItsDeadlinePassesWithoutAnotherArriving() {
        var watch = H.engine(.watch)
        let slow = Self.serial(1, deadline: 100)
        let next = Self.serial(2)
        #expect(H.runs(watch.receive(WireCodec.encode(.request(slow)), on: .message, now: H.t0)).count == 1)
        // Queued behind the slow handler, before its deadline.
        #expect(H.runs(watch.receive(WireCodec.encode(.request(next)), on: .message, now: H.t0)).isEmpty)
        // Nothing else arrives: the engine asks to be woken just past the slow request's deadline,
        // and starts the queued one then.
        guard let wake = watch.nextWakeup else {
            Issue.record("no wake-up for the overdue handler")
            return
        }
        #expect(wake > slow.deadline)
        #expect(wake <= slow.deadline.advanced(by: .seconds(1)))
        #expect(H.runs(watch.tick(now: wake)).map(\.requestID) == [H.request(2).requestID])
    }

    @Test func aResendOfAQueuedMessageReleasesAnOverdueHandler() {
        var watch = H.engine(.watch)
        let slow = Self.serial(1, deadline: 100)
        let next = Self.serial(2)
        #expect(H.runs(watch.receive(WireCodec.encode(.request(slow)), on: .message, now: H.t0)).count == 1)
        #expect(H.runs(watch.receive(WireCodec.encode(.request(next)), on: .message, now: H.t0)).isEmpty)
        // The sender retries the queued request after the slow one's deadline: it is not queued
        // twice, and it starts.
        let resent = watch.receive(WireCodec.encode(.request(next)), on: .message, now: H.t0.advanced(by: .seconds(1)))
        #expect(H.runs(resent).map(\.requestID) == [H.request(2).requestID])
    }

    @Test func lateRequestIsRefusedNotRun() {
        var watch = H.engine(.watch)
        let actions = watch.receive(
            WireCodec.encode(.request(H.request(1, deadline: 10))), on: .message, now: H.t0.advanced(by: .seconds(1)))
        #expect(H.runs(actions).isEmpty)
        guard case .response(let response)? = H.frames(actions).first else { Issue.record("no answer"); return }
        #expect(response.error?.code == .expired)
    }

    @Test func undecodableRequestIsAnsweredForItsID() {
        var watch = H.engine(.watch)
        let id = H.request(9).requestID
        let text = "{\"v\":1,\"kind\":\"request\",\"request\":{\"id\":\"\(id.uuidString)\",\"idem\":\"k9\",\"payload\":7}}"
        let actions = watch.receive(Data(text.utf8), on: .message, now: H.t0)
        guard case .response(let response)? = H.frames(actions).first else { Issue.record("no answer"); return }
        #expect(response.requestID == id)
        #expect(response.error?.code == .invalidEnvelope)
        #expect(H.runs(actions).isEmpty)
    }

    @Test func recoveredOutboxIsRetransmittedAfterActivation() {
        var phone = H.engine(.phone)
        let first = phone.submit(H.request(1), strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        var restarted = LinkEngine(origin: .phone, random: SeededRandom(seed: 3))
        let recovered = restarted.recover(from: H.records(first), receivedContext: nil, now: H.t0)
        #expect(H.sends(recovered).isEmpty)
        #expect(restarted.pendingCount == 1)
        let activated = restarted.activate(now: H.t0)
        #expect(H.sends(activated).map(\.0) == [.userInfo])
    }

    @Test func contextRoutedRequestsRoundTrip() {
        var pair = EnginePair()
        _ = pair.phone.setReachable(false, now: pair.now)
        pair.deliver(
            pair.phone.submit(H.request(5), strategy: .messageWithContextFallback, retry: .standard, now: pair.now), from: .phone)
        pair.advance(1)
        #expect(pair.runs == 1)
        #expect(pair.completed[H.request(5).requestID] != nil)
    }

    @Test func compactionKeepsWhatRecoveryNeeds() {
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 4
        var phone = H.engine(.phone, configuration: configuration, reachable: false)
        var actions: [LinkAction] = []
        var snapshot: [DurableRecord]?
        // NB: five requests stay pending; the others are cancelled, so most of the log is garbage
        // and a compaction pays.
        for n in 1...5 {
            var batch = phone.submit(H.request(n), strategy: .userInfoOnly, retry: .standard, now: H.t0)
            for dropped in 0..<4 {
                let request = H.request(100 + n * 4 + dropped)
                batch += phone.submit(request, strategy: .userInfoOnly, retry: .standard, now: H.t0)
                batch += phone.cancel(request.requestID, now: H.t0)
            }
            // NB: as a shell performs it: the snapshot is taken when the compaction is reached, and
            // the log is that snapshot followed by what was appended after it.
            if batch.contains(.compact) {
                snapshot = phone.snapshot(now: H.t0)
                actions = Array(batch.drop { $0 != .compact })
            } else {
                actions += batch
            }
        }
        #expect(snapshot != nil)
        var restarted = LinkEngine(origin: .phone, random: SeededRandom(seed: 3))
        _ = restarted.recover(from: (snapshot ?? []) + H.records(actions), receivedContext: nil, now: H.t0)
        #expect(restarted.pendingCount == 5)
    }

    @Test func theLiveRecordCountIsTheSnapshotsSize() {
        var phone = H.engine(.phone, reachable: false)
        var watch = H.engine(.watch)
        #expect(phone.liveRecordCount() == phone.snapshot(now: H.t0).count)
        for n in 0..<6 {
            _ = phone.submit(H.request(n, durable: n % 2 == 0), strategy: .userInfoOnly, retry: .standard, now: H.t0)
            var request = H.request(n, durable: n % 3 != 0, key: "k-\(n)")
            request.target = watch.incarnation
            var actions = watch.receive(WireCodec.encode(.request(request)), on: .message, now: H.t0)
            if n % 2 == 0 {
                for call in H.runs(actions) {
                    actions += watch.handlerFinished(
                        idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data()), now: H.t0)
                }
            }
        }
        _ = phone.cancel(H.request(2).requestID, now: H.t0)
        _ = watch.updateState("mood", value: Data("1".utf8), now: H.t0)
        #expect(phone.liveRecordCount() == phone.snapshot(now: H.t0).count)
        #expect(watch.liveRecordCount() == watch.snapshot(now: H.t0).count)
        // NB: past every deadline and its retention, the prune forgets them and leaves the horizon.
        let later = H.t0.advanced(by: .seconds(600))
        watch.pruneInbox(now: later)
        #expect(watch.liveRecordCount() == watch.snapshot(now: later).count)
        #expect(watch.snapshot(now: later).contains { if case .inboxHorizon = $0 { true } else { false } })
    }

    @Test func aLogOfWhatIsKeptIsNotRewrittenUntilMostOfItIsGarbage() throws {
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 4
        var watch = H.engine(.watch, configuration: configuration)
        var log = 0
        var compactions: [(log: Int, snapshot: [DurableRecord])] = []
        func handle(_ n: Int, at now: WatchTimestamp) {
            var request = H.request(n % 256, key: "kept-\(n)")
            request.deadline = now.advanced(by: .seconds(30))
            var actions = watch.receive(WireCodec.encode(.request(request)), on: .message, now: now)
            for call in H.runs(actions) {
                actions += watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data()), now: now)
            }
            log += H.records(actions).count
            if actions.contains(.compact) {
                compactions.append((log, watch.snapshot(now: now)))
                log = compactions.last!.snapshot.count
            }
        }
        // Every request keeps its entry until its deadline and retention have passed: two records
        // in the log, one in a snapshot. Compaction is considered at intervals that grow with the
        // inbox (a quarter of it), and never done.
        for n in 0..<400 { handle(n, at: H.t0) }
        #expect(compactions.isEmpty, "\(compactions.map(\.log))")
        #expect((10...60).contains(watch.compactionChecks), "\(watch.compactionChecks) checks")
        #expect(log == 800)
        // Past their retention, the next check prunes them: the log is nearly all garbage, and is
        // compacted to the few entries still kept.
        let later = H.t0.advanced(by: .seconds(91))
        for n in 400..<1000 where compactions.isEmpty { handle(n, at: later) }
        let first = try #require(compactions.first)
        #expect(first.log >= 3 * first.snapshot.count, "a log of \(first.log) records, a snapshot of \(first.snapshot.count)")
        let keys = first.snapshot.compactMap { record -> Int? in
            switch record {
            case .inboxStarted(let start): Int(start.idempotencyKey.dropFirst(5))
            case .inboxFinished(let response, _): Int(response.idempotencyKey.dropFirst(5))
            default: nil
            }
        }
        #expect(!keys.isEmpty && keys.allSatisfy { $0 >= 400 }, "\(keys.count) entries")
    }

    @Test func aLargeNonDurableInboxSpacesChecksOutAndStaysOutOfTheSnapshot() {
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 10
        var watch = H.engine(.watch, configuration: configuration)
        func handle(_ request: WireRequest) -> [LinkAction] {
            var actions = watch.receive(WireCodec.encode(.request(request)), on: .message, now: H.t0)
            for call in H.runs(actions) {
                actions += watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data()), now: H.t0)
            }
            return actions
        }
        for n in 0..<4000 {
            var request = H.request(n % 256, durable: false, key: "quick-\(n)")
            request.target = watch.incarnation
            #expect(H.runs(handle(request)).count == 1)
        }
        let checksBefore = watch.compactionChecks
        var records = 0
        var compactions = 0
        for n in 0..<1200 {
            let actions = handle(H.request(n % 256, key: "kept-\(n)"))
            records += H.records(actions).count
            if actions.contains(.compact) { compactions += 1 }
        }
        // NB: each check waits for the log to grow by a quarter of the inbox (4,000 entries and
        // more), not only by twice the snapshot's size and the threshold of 10 records; and none
        // compacts, as every durable entry is kept (half of the log).
        #expect(records >= 2400)
        #expect((1...3).contains(watch.compactionChecks - checksBefore), "\(watch.compactionChecks - checksBefore) checks")
        #expect(compactions == 0)
        let keys = watch.snapshot(now: H.t0).compactMap { record -> String? in
            switch record {
            case .inboxStarted(let start): start.idempotencyKey
            case .inboxFinished(let response, _): response.idempotencyKey
            default: nil
            }
        }
        // NB: every durable request handled is in the snapshot, and nothing else.
        #expect(Set(keys).count == 1200, "\(Set(keys).count) keys")
        #expect(keys == keys.sorted())
        #expect(keys.allSatisfy { $0.hasPrefix("kept-") })
    }
}
