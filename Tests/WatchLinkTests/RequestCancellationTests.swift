import Foundation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

@testable import WatchLink

/// Cancelling the task that called `send`: the engine by hand, then two connections on a manual clock.
// NB: generous: the CLI suites block cooperative threads while their processes run, which
// can stall these async tests for a while on a 2-core machine; a real hang still fails.
@Suite(.timeLimit(.minutes(5))) struct RequestCancellationTests {
    typealias H = EngineHarness

    static func isCancelledSettlement(_ record: DurableRecord, _ id: UUID) -> Bool {
        if case .outboxSettled(id, let response) = record { response.error?.code == .cancelled } else { false }
    }

    // MARK: Engine

    @Test func aRequestNotYetSentLeavesTheOutboxDurablyAndIsNeverSent() {
        var phone = H.engine(.phone, activated: false, reachable: false)
        let request = H.request(1)
        let submitted = phone.submit(request, strategy: .userInfoOnly, retry: .standard, now: H.t0)
        #expect(H.sends(submitted).isEmpty)
        let cancelled = phone.cancel(request.requestID, now: H.t0)
        #expect(H.completions(cancelled).map { H.errorCode($0.1) } == [.cancelled])
        #expect(H.records(cancelled).contains { Self.isCancelledSettlement($0, request.requestID) })
        #expect(cancelled.contains(.sync))
        #expect(cancelled.contains(.event(.requestSettled(request.requestID, .cancelled))))
        #expect(phone.pendingCount == 0)
        #expect(H.sends(phone.activate(now: H.t0)).isEmpty)
        #expect(phone.cancel(request.requestID, now: H.t0).isEmpty, "a second cancel does nothing")

        var restarted = LinkEngine(origin: .phone, random: SeededRandom(seed: 9))
        _ = restarted.recover(from: H.records(submitted) + H.records(cancelled), receivedContext: nil, now: H.t0)
        #expect(restarted.pendingCount == 0, "a restart does not resurrect it")
    }

    @Test func theLateAnswerToASentRequestIsDroppedAndReportedOnce() throws {
        var phone = H.engine(.phone)
        var watch = H.engine(.watch)
        let request = H.request(2)
        let submitted = phone.submit(request, strategy: .messageOnly, retry: .standard, now: H.t0)
        let (channel, data) = try #require(H.sends(submitted).first)
        let cancelled = phone.cancel(request.requestID, now: H.t0)
        #expect(H.completions(cancelled).map { H.errorCode($0.1) } == [.cancelled])

        let call = try #require(H.runs(watch.receive(data, on: channel, now: H.t0)).first)
        let answer = watch.handlerFinished(
            idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(Data("{}".utf8)), now: H.t0)
        let (replyChannel, reply) = try #require(H.sends(answer).first)
        let late = phone.receive(reply, on: replyChannel, now: H.t0)
        #expect(late.contains(.event(.lateResponseDropped(request.requestID))))
        #expect(H.completions(late).isEmpty)
        let again = phone.receive(reply, on: replyChannel, now: H.t0)
        #expect(!again.contains(.event(.lateResponseDropped(request.requestID))))
        #expect(H.completions(again).isEmpty)
    }

    // MARK: Connection

    func makePair(clock: ManualClock) -> (WatchConnection, InMemoryStore, WatchConnection) {
        let (phoneSession, watchSession) = InMemorySession.makePair()
        let t0 = WatchTimestamp(milliseconds: 1_000_000)
        let phoneStore = InMemoryStore()
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: phoneStore, clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 1))
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: InMemoryStore(), clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 2))
        return (phone, phoneStore, watch)
    }

    /// The texts of the runs of a handler, in run order.
    final class RunLog: Sendable {
        let texts = Mutex<[String]>([])
        var all: [String] { texts.withLock { $0 } }
    }

    /// Registers a `Ping` echo on `watch` that records the text of every run.
    func echoRecordingRuns(on watch: WatchConnection) throws -> RunLog {
        let runs = RunLog()
        try watch.register(Ping.self) { ping in
            runs.texts.withLock { $0.append(ping.text) }
            return Pong(text: ping.text)
        }
        return runs
    }

    func expectCancelled(_ task: Task<Pong, any Error>) async {
        do {
            _ = try await task.value
            Issue.record("expected cancelled")
        } catch {
            #expect((error as? WatchLinkError)?.code == .cancelled, "\(error)")
        }
    }

    @Test func cancellingASentRequestThrowsAtOnceAndItsLateAnswerIsReported() async throws {
        let clock = ManualClock()
        let (phone, _, watch) = makePair(clock: clock)
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let (gate, opening) = AsyncStream.makeStream(of: Void.self)
        try watch.register(Ping.self) { ping in
            startedSignal.yield()
            for await _ in gate { break }
            return Pong(text: ping.text)
        }
        try await watch.start()
        try await phone.start()
        let events = await phone.events()
        let task = Task { try await phone.send(Ping(text: "slow"), strategy: .messageOnly) }
        for await _ in started { break }
        task.cancel()
        await expectCancelled(task)
        await eventually { phone.status.pendingCount == 0 }

        opening.yield()
        for await event in events {
            if event.kind == .lateResponseDropped { break }
        }
        // NB: the connection still works; the clock never moved.
        opening.yield()
        #expect(try await phone.send(Ping(text: "next"), strategy: .messageOnly) == Pong(text: "next"))
    }

    @Test func cancellingARequestThatWaitsForReachabilityKeepsItOffTheWatch() async throws {
        let clock = ManualClock()
        let (phone, store, watch) = makePair(clock: clock)
        let runs = try echoRecordingRuns(on: watch)
        try await phone.start()
        let task = Task { try await phone.send(Ping(text: "never"), strategy: .messageOnly) }
        await eventually { phone.status.pendingCount == 1 }
        task.cancel()
        await expectCancelled(task)
        await eventually { phone.status.pendingCount == 0 }
        #expect(store.load().contains { if case .outboxSettled(_, let r) = $0 { r.error?.code == .cancelled } else { false } })

        try await watch.start()
        #expect(try await phone.send(Ping(text: "after"), strategy: .messageOnly) == Pong(text: "after"))
        #expect(runs.all == ["after"])
    }

    @Test func cancellingRightAfterCallingLeavesNothingBehindWhereverTheRequestWas() async throws {
        let clock = ManualClock()
        let (phone, store, watch) = makePair(clock: clock)
        let runs = try echoRecordingRuns(on: watch)
        try await phone.start()
        // NB: each cancel lands while the request is still queued for the pump, or already in the outbox.
        let tasks = (0..<50).map { n in Task { try await phone.send(Ping(text: "c\(n)"), strategy: .messageOnly) } }
        for task in tasks { task.cancel() }
        for task in tasks { await expectCancelled(task) }
        await eventually { phone.status.pendingCount == 0 }
        var recovered = LinkEngine(origin: .phone, random: SeededRandom(seed: 3))
        _ = recovered.recover(from: store.load(), receivedContext: nil, now: H.t0)
        #expect(recovered.pendingCount == 0)

        try await watch.start()
        #expect(try await phone.send(Ping(text: "after"), strategy: .messageOnly) == Pong(text: "after"))
        #expect(runs.all == ["after"])
    }

    @Test func anAlreadyCancelledTaskSendsNothing() async throws {
        let clock = ManualClock()
        let (phone, store, watch) = makePair(clock: clock)
        try watch.register(Ping.self) { Pong(text: $0.text) }
        try await watch.start()
        try await phone.start()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await phone.send(Ping(text: "late"))
        }
        await expectCancelled(task)
        #expect(phone.status.pendingCount == 0)
        #expect(!store.load().contains { if case .outboxAdded = $0 { true } else { false } })
    }

    @Test func cancellingPostsWithdrawsEveryOneNotYetAcceptedAndDeliversTheRest() async throws {
        let clock = ManualClock()
        let (phone, store, watch) = makePair(clock: clock)
        let runs = Mutex<[String]>([])
        try watch.register(Note.self) { note in
            runs.withLock { $0.append(note.body) }
            return WatchAck()
        }
        try await phone.start()
        // NB: each cancel lands before the post is accepted (it throws and is withdrawn) or after
        // (it returns, and is delivered); which, depends on scheduling, so both are checked.
        let tasks = (0..<50).map { n in
            Task { try await phone.post(Note(body: "p\(n)"), strategy: .messageOnly) }
        }
        for (n, task) in tasks.enumerated() where n % 2 == 0 { task.cancel() }
        var accepted: Set<String> = []
        for (n, task) in tasks.enumerated() {
            do {
                _ = try await task.value
                accepted.insert("p\(n)")
            } catch {
                #expect((error as? WatchLinkError)?.code == .cancelled, "\(error)")
                #expect(n % 2 == 0, "only cancelled posts fail")
            }
        }
        #expect(accepted.count >= 25)
        #expect(accepted.count < 50, "posts cancelled as they were created are withdrawn")
        let expected = accepted
        await eventually { phone.status.pendingCount == expected.count }
        var recovered = LinkEngine(origin: .phone, random: SeededRandom(seed: 4))
        _ = recovered.recover(from: store.load(), receivedContext: nil, now: H.t0)
        #expect(recovered.pendingCount == accepted.count, "withdrawn posts stay withdrawn after a restart")

        try await watch.start()
        await eventually { runs.withLock { $0.count } == expected.count && phone.status.pendingCount == 0 }
        #expect(Set(runs.withLock { $0 }) == accepted)
    }

    @Test func anAlreadyCancelledTaskPostsNothing() async throws {
        let clock = ManualClock()
        let (phone, store, watch) = makePair(clock: clock)
        try watch.register(Note.self) { _ in WatchAck() }
        try await watch.start()
        try await phone.start()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await phone.post(Note(body: "late"))
        }
        do {
            _ = try await task.value
            Issue.record("expected cancelled")
        } catch {
            #expect((error as? WatchLinkError)?.code == .cancelled, "\(error)")
        }
        #expect(phone.status.pendingCount == 0)
        #expect(!store.load().contains { if case .outboxAdded = $0 { true } else { false } })
    }
}
