import Foundation
import Observation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

@testable import WatchLink

@Suite struct WatchConnectionTests {
    struct Device {
        let connection: WatchConnection
        let session: InMemorySession
        let store: InMemoryStore
    }

    func makePair(clock: ManualClock = ManualClock()) -> (Device, Device) {
        let (phoneSession, watchSession) = InMemorySession.makePair()
        let phoneStore = InMemoryStore()
        let watchStore = InMemoryStore()
        let t0 = WatchTimestamp(milliseconds: 1_000_000)
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: phoneStore, clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 1))
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: watchStore, clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 2))
        return (
            Device(connection: phone, session: phoneSession, store: phoneStore),
            Device(connection: watch, session: watchSession, store: watchStore)
        )
    }

    @Test func typedRequestRoundTrips() async throws {
        let (phone, watch) = makePair()
        try watch.connection.register(Ping.self) { Pong(text: "pong:" + $0.text) }
        try await watch.connection.start()
        try await phone.connection.start()
        let reply = try await phone.connection.send(Ping(text: "hi"))
        #expect(reply == Pong(text: "pong:hi"))
        #expect(phone.connection.status.pendingCount == 0)
        #expect(phone.connection.status.isReachable)
        #expect(phone.store.load().contains { if case .outboxSettled = $0 { true } else { false } })
    }

    /// A request's accepted and settled events are made while a stream of events is open and not
    /// otherwise: the flag follows the streams as they open and end, and stopping ends them all.
    @Test func requestEventsFollowTheOpenStreams() async throws {
        let (phone, watch) = makePair()
        try watch.connection.register(Ping.self) { Pong(text: $0.text) }
        try await watch.connection.start()
        try await phone.connection.start()
        @Sendable func reporting() async -> Bool {
            await phone.connection.queue.perform { phone.connection.engine.reportsRequestEvents }
        }
        #expect(await reporting() == false)
        _ = try await phone.connection.send(Ping(text: "unheard"))
        var task: Task<Bool, Never>?
        do {
            let events = await phone.connection.events()
            #expect(await reporting())
            task = Task {
                for await event in events where event.kind == .requestSettled && event.code == nil { return true }
                return false
            }
            _ = try await phone.connection.send(Ping(text: "heard"))
            #expect(await task?.value == true)
        }
        await eventually { await reporting() == false }
        let again = await phone.connection.events()
        #expect(await reporting())
        await phone.connection.stop()
        #expect(await reporting() == false)
        var ended = true
        for await _ in again { ended = false }
        #expect(ended)
        // Streams asked for after the stop end at once (they used to wait for events that never came);
        // read in a task, so a stream that does not end fails the test instead of hanging it.
        let events = await phone.connection.events()
        let files = await phone.connection.receivedFiles()
        let reader = Task {
            for await _ in events { Issue.record("an event after the stop") }
            for await _ in files { Issue.record("a file after the stop") }
            return true
        }
        let finished = Mutex(false)
        Task {
            let ended = await reader.value
            finished.withLock { $0 = ended }
        }
        await eventually { finished.withLock { $0 } }
        reader.cancel()
        #expect(await reporting() == false)
    }

    @Test func handlerErrorsArriveAsStructuredCodes() async throws {
        let (phone, watch) = makePair()
        try watch.connection.register(Ping.self) { _ in
            throw WatchLinkError("ping.refused", "not today", details: ["why": "test"])
        }
        try await watch.connection.start()
        try await phone.connection.start()
        do {
            _ = try await phone.connection.send(Ping(text: "x"))
            Issue.record("expected failure")
        } catch {
            #expect(error.code.rawValue == "ping.refused")
            #expect(error.details["why"] == "test")
        }
        await #expect(throws: WatchLinkError.self) {
            try await phone.connection.send(Note(body: "unregistered"), strategy: .messageOnly)
        }
    }

    @Test func timeoutFollowsTheInjectedClock() async throws {
        let clock = ManualClock()
        let (phone, _) = makePair(clock: clock)
        try await phone.connection.start()
        let task = Task { try await phone.connection.send(Ping(text: "x"), strategy: .userInfoOnly, timeout: .seconds(5)) }
        await eventually { phone.connection.status.pendingCount == 1 }
        clock.advance(by: .seconds(5))
        do {
            _ = try await task.value
            Issue.record("expected timeout")
        } catch let error as WatchLinkError {
            #expect(error.code == .timeout)
        }
    }

    @Test func resendsOnTheUserInfoChannelKeepOneCopyQueued() async throws {
        let root = "/tmp/wl-resend-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // NB: nobody listens on the socket, so every transfer stays queued.
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root)
        let clock = ManualClock()
        let phone = WatchConnection(
            origin: .phone, session: session, store: InMemoryStore(), clock: clock,
            wallClockAtStart: WatchTimestamp(milliseconds: 1_000_000), random: SeededRandom(seed: 1))
        try await phone.start()
        try await phone.post(Note(body: "queued"), strategy: .userInfoOnly)
        /// The attempt numbers of the requests queued in the session.
        let queued: @Sendable () -> [Int] = {
            session.state.withLock { $0.queue }.compactMap { item in
                guard case .request(let request)? = try? WireCodec.decode(item.data) else { return nil }
                return request.attempt
            }
        }
        await eventually { queued() == [0] }
        for attempt in 1...2 {
            // NB: no answer comes, so the request is sent again once the queued-reply timeout passes.
            clock.advance(by: .seconds(60))
            await eventually { queued().first == attempt }
        }
        #expect(queued() == [2], "the re-sends took the first copy's place instead of queueing behind it")
        await phone.stop()
        session.invalidate()
    }

    @Test func durableOutboxSurvivesACrashAndRunsOnce() async throws {
        let clock = ManualClock()
        let (phone, watch) = makePair(clock: clock)
        let runs = Mutex(0)
        try watch.connection.register(Note.self) { _ in
            runs.withLock { $0 += 1 }
            return WatchAck()
        }
        try await phone.connection.start()
        try await phone.connection.post(Note(body: "queued"), strategy: .messageOnly)
        #expect(phone.connection.status.pendingCount == 1)
        await phone.connection.stop()
        phone.session.deactivate()
        phone.store.crash()

        let restarted = WatchConnection(
            origin: .phone, session: phone.session, store: phone.store, clock: clock,
            wallClockAtStart: WatchTimestamp(milliseconds: 1_000_000), random: SeededRandom(seed: 9))
        let events = await restarted.events()
        try await restarted.start()
        #expect(restarted.status.pendingCount == 1)
        try await watch.connection.start()
        clock.advance(by: .seconds(1))
        var settled = false
        for await event in events {
            if event.kind == .requestSettled, event.code == nil { settled = true; break }
            clock.advance(by: .seconds(1))
        }
        #expect(settled)
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func groupCommitWithCompactionKeepsEveryAcceptedRequest() async throws {
        let clock = ManualClock()
        let (phoneSession, _) = InMemorySession.makePair()
        let store = InMemoryStore()
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 5
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: store, clock: clock, random: SeededRandom(seed: 4),
            configuration: configuration)
        try await phone.start()
        // NB: posts that expire unanswered leave two records each and nothing to keep: once they
        // settle, most of the log is garbage, and the commit of their settles compacts it.
        for n in 0..<30 {
            _ = try await phone.post(Note(body: "e\(n)"), strategy: .messageOnly, timeout: .seconds(1))
        }
        clock.advance(by: .seconds(2))
        await eventually { phone.status.pendingCount == 0 }
        let results = try await phone.post(contentsOf: (0..<24).map { Note(body: "n\($0)") }, strategy: .messageOnly)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        // NB: 87 records without a compaction; with one, the snapshot and the group's 24.
        #expect(store.load().count < 50, "\(store.load().count) records")
        for n in 24..<36 { _ = try await phone.post(Note(body: "n\(n)"), strategy: .messageOnly) }
        let refused = try await phone.post(
            contentsOf: [Note(body: String(repeating: "x", count: 70_000))], strategy: .messageOnly)
        #expect(refused.count == 1 && { if case .failure(let e) = refused[0] { e.code == .payloadTooLarge } else { false } }())
        await phone.stop()
        store.crash()
        let restarted = WatchConnection(
            origin: .phone, session: phoneSession, store: store, clock: clock, random: SeededRandom(seed: 5))
        try await restarted.start()
        #expect(restarted.status.pendingCount == 36)
    }

    @Test func statusIsObservable() async throws {
        let (phone, watch) = makePair()
        try await phone.connection.start()
        let changed = Mutex(false)
        withObservationTracking {
            _ = phone.connection.status.isReachable
        } onChange: {
            changed.withLock { $0 = true }
        }
        try await watch.connection.start()
        await eventually { changed.withLock { $0 } }
        // NB: the change is told before the new value is stored.
        await eventually { phone.connection.status.isReachable }
    }

    @Test func sharedStateConvergesAcrossConnections() async throws {
        let clock = ManualClock()
        let (phone, watch) = makePair(clock: clock)
        try await phone.connection.start()
        try await watch.connection.start()
        let phoneCount = try await phone.connection.sharedState("count", initial: 0, strategy: .custom { max($0, $1) })
        let watchCount = try await watch.connection.sharedState("count", initial: 0, strategy: .custom { max($0, $1) })
        let watchName = try await watch.connection.sharedState("name", initial: "")
        try await phoneCount.update(5)
        try await watchName.update("w")
        #expect(phoneCount.value == 5)
        // NB: time passes while the two converge: a confirmation the watch coalesces waits for the
        // clock, and the context travels through other threads first.
        await eventually {
            clock.advance(by: .milliseconds(100))
            return watchCount.value == 5 && !phoneCount.hasUnconfirmedChanges
        }
        #expect(watchName.value == "w")
        await #expect(throws: WatchLinkError.self) { try await phone.connection.sharedState("count", initial: "wrong type") }
        await #expect(throws: WatchLinkError.self) { try await phone.connection.sharedState("", initial: 1) }
    }

    @Test func batchPostReportsItemsPushedOutByLaterOnes() async throws {
        var configuration = LinkEngine.Configuration()
        configuration.outboxLimit = 2
        let (session, _) = InMemorySession.makePair()
        let phone = WatchConnection(
            origin: .phone, session: session, store: InMemoryStore(), clock: ManualClock(),
            wallClockAtStart: WatchTimestamp(milliseconds: 1_000_000), random: SeededRandom(seed: 1),
            configuration: configuration)
        try await phone.start()
        let results = try await phone.post(contentsOf: [Note(body: "a"), Note(body: "b"), Note(body: "c")])
        #expect(results.count == 3)
        #expect((try? results[0].get()) == nil)
        if case .failure(let error) = results[0] { #expect(error.code == .outboxOverflow) }
        #expect((try? results[1].get()) != nil)
        #expect((try? results[2].get()) != nil)
        #expect(phone.status.pendingCount == 2)
    }

    @Test func oversizedSharedStateIsRefusedToTheUpdater() async throws {
        let (phone, _) = makePair()
        try await phone.connection.start()
        let notes = try await phone.connection.sharedState("notes", initial: "")
        do {
            try await notes.update(String(repeating: "x", count: 270_000))
            Issue.record("an update beyond the context limit was accepted")
        } catch {
            #expect(error.code == .payloadTooLarge)
            #expect(error.details["key"] == "notes")
        }
        #expect(notes.value == "")
        try await notes.update("small")
        #expect(notes.value == "small")
    }

    @Test func sendingBeforeStartIsAnError() async {
        let (phone, _) = makePair()
        await #expect(throws: WatchLinkError.self) { try await phone.connection.send(Ping(text: "x")) }
        await #expect(throws: WatchLinkError.self) {
            try await phone.connection.start()
            _ = try await phone.connection.send(Ping(text: "x"), timeout: .zero)
        }
    }

    @Test func messageChannelHandlersRunOneAtATimeInArrivalOrder() async throws {
        let (phone, watch) = makePair()
        let log = Mutex<[String]>([])
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        try watch.connection.register(Ping.self) { ping in
            log.withLock { $0.append("start " + ping.text) }
            if ping.text == "a" {
                for await _ in gate { break }
            }
            log.withLock { $0.append("end " + ping.text) }
            return Pong(text: ping.text)
        }
        try await watch.connection.start()
        try await phone.connection.start()
        // NB: learn the watch's incarnation first, so the non-durable request is not refused and re-sent.
        _ = try await phone.connection.send(Ping(text: "warm-up"), strategy: .messageOnly, durable: false)
        log.withLock { $0.removeAll() }
        var calls: [Task<Pong, any Error>] = []
        for (i, text) in ["a", "b", "c"].enumerated() {
            calls.append(Task { try await phone.connection.send(Ping(text: text), strategy: .messageOnly, durable: i != 1) })
            // NB: submit in a known order; the message channel then delivers in that order.
            await eventually { phone.connection.status.pendingCount == i + 1 }
        }
        await eventually { log.withLock { $0 } == ["start a"] }
        for _ in 0..<100 { await Task.yield() }
        #expect(log.withLock { $0 } == ["start a"], "b and c must wait for a")
        open.yield()
        for call in calls { _ = try await call.value }
        #expect(log.withLock { $0 } == ["start a", "end a", "start b", "end b", "start c", "end c"])
    }
}

/// Waits for work the connections hand to other threads (the session's callbacks, transfers),
/// never for time: the tests that use it run on a `ManualClock`. Yields first, then polls for up
/// to 30 s of a loaded machine.
func eventually(_ condition: @Sendable () async -> Bool) async {
    for attempt in 0..<13_000 {
        if await condition() { return }
        if attempt < 10_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(10)) }
    }
    Issue.record("condition never became true")
}
