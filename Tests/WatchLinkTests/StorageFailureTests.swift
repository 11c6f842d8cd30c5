import Foundation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

@testable import WatchLink

/// A failed append or sync stops the connection: nothing it was meant to make safe happens.
@Suite struct StorageFailureTests {
    /// An in-memory store whose writes can be made to fail; it can ask to be synced off the actor, like a file.
    final class FailingStore: DurableStore {
        let inner = InMemoryStore()
        let failing = Mutex(false)
        let syncsInBackground: Bool

        init(syncsInBackground: Bool = false) { self.syncsInBackground = syncsInBackground }

        func check() throws(WatchLinkError) {
            if failing.withLock({ $0 }) { throw WatchLinkError(.storageFailed, "disk full") }
        }

        func load() -> [DurableRecord] { inner.load() }
        func append(_ records: [DurableRecord]) throws(WatchLinkError) {
            try check()
            inner.append(records)
        }
        func sync() throws(WatchLinkError) {
            try check()
            inner.sync()
        }
        func replace(with records: [DurableRecord]) throws(WatchLinkError) {
            try check()
            inner.replace(with: records)
        }
    }

    /// A handler-run counter shared with the handler.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    struct Pair {
        let phone: WatchConnection
        let watch: WatchConnection
        let phoneStore: FailingStore
        let watchStore: FailingStore
        let runs = Counter()

        init(background: Bool = false) throws {
            phoneStore = FailingStore(syncsInBackground: background)
            watchStore = FailingStore(syncsInBackground: background)
            let (phoneSession, watchSession) = InMemorySession.makePair()
            let clock = ManualClock()
            let t0 = WatchTimestamp(milliseconds: 1_000_000)
            phone = WatchConnection(
                origin: .phone, session: phoneSession, durableStore: phoneStore, clock: clock, wallClockAtStart: t0,
                random: SeededRandom(seed: 1))
            watch = WatchConnection(
                origin: .watch, session: watchSession, durableStore: watchStore, clock: clock, wallClockAtStart: t0,
                random: SeededRandom(seed: 2))
            let runs = self.runs
            try watch.register(Ping.self) { ping in
                runs.value.withLock { $0 += 1 }
                return Pong(text: ping.text)
            }
        }
    }

    @Test(arguments: [false, true])
    func aFailedSyncOnTheSenderFailsTheSendAndRunsNothing(background: Bool) async throws {
        let pair = try Pair(background: background)
        try await pair.watch.start()
        try await pair.phone.start()
        pair.phoneStore.failing.withLock { $0 = true }
        await #expect(throws: WatchLinkError.self) { try await pair.phone.send(Ping(text: "lost?")) }
        do {
            _ = try await pair.phone.send(Ping(text: "again"))
            Issue.record("a send after a storage failure succeeded")
        } catch {
            #expect(error.code == .storageFailed)
        }
        #expect(pair.runs.value.withLock { $0 } == 0)
        #expect(pair.phoneStore.load().allSatisfy { if case .outboxAdded = $0 { false } else { true } })
    }

    @Test(arguments: [false, true])
    func theFailingSendGetsAStorageError(background: Bool) async throws {
        let pair = try Pair(background: background)
        try await pair.phone.start()
        pair.phoneStore.failing.withLock { $0 = true }
        do {
            try await pair.phone.post(Note(body: "x"), strategy: .userInfoOnly)
            Issue.record("post reported accepted after a failed sync")
        } catch {
            #expect(error.code == .storageFailed)
        }
    }

    @Test(arguments: [false, true])
    func aFailedStartMarkOnTheReceiverRunsNoHandler(background: Bool) async throws {
        let pair = try Pair(background: background)
        try await pair.watch.start()
        try await pair.phone.start()
        pair.watchStore.failing.withLock { $0 = true }
        try await pair.phone.post(Note(body: "x"), strategy: .messageOnly)
        let task = Task { try await pair.phone.send(Ping(text: "hello"), strategy: .messageOnly) }
        var stopped = false
        for _ in 0..<10_000 where !stopped {
            stopped = pair.watch.flags.withLock { $0.storageError } != nil
            await Task.yield()
        }
        #expect(stopped)
        #expect(pair.runs.value.withLock { $0 } == 0)
        task.cancel()
        await pair.phone.stop()
    }

    @Test func aStoreSyncedInTheBackgroundServesEveryKindOfCall() async throws {
        let pair = try Pair(background: true)
        try await pair.watch.start()
        try await pair.phone.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<20 {
                group.addTask { _ = try await pair.phone.send(Ping(text: "\(n)"), strategy: .messageOnly) }
            }
            group.addTask {
                let state = try await pair.phone.sharedState("k", initial: 0)
                for value in 1...5 { try await state.update(value) }
            }
            try await group.waitForAll()
        }
        let posted = try await pair.phone.post(contentsOf: [Note(body: "a"), Note(body: "b")], strategy: .userInfoOnly)
        #expect(posted.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(pair.runs.value.withLock { $0 } == 20)
        #expect(pair.phoneStore.load().contains { if case .state = $0 { true } else { false } })
    }

    @Test func aStoreThatCannotCompactOnStartRefusesToStart() async {
        let pair = try? Pair()
        guard let pair else { Issue.record("could not build the pair"); return }
        pair.phoneStore.failing.withLock { $0 = true }
        do {
            try await pair.phone.start()
            Issue.record("started on a store that cannot write")
        } catch {
            #expect(error.code == .storageFailed)
        }
    }
}
