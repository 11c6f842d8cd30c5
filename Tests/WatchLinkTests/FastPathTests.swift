import Foundation
import PWAKitRetry
import Synchronization
import Testing

@testable import WatchLink

/// The connection driven on the threads that bring it work: its serial queue, handlers run
/// inline on the reading thread, and a reading thread that never waits to write.
@Suite struct FastPathTests {
    struct ThreadName: WatchRequest {
        typealias Response = String
        var step: Int
    }

    struct OnReader: WatchRequest {
        typealias Response = Bool
    }

    struct AsyncOnReader: WatchRequest {
        typealias Response = Bool
    }

    struct Bulk: WatchFireAndForget {
        var index: Int
    }

    static func directory() -> String {
        let path = "/tmp/wl-fast-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path + "/a", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: path + "/b", withIntermediateDirectories: true)
        return path
    }

    // MARK: The serial queue

    @Test func jobsFromManyThreadsRunOneAtATimeAndInEachSubmittersOrder() async {
        let queue = InlineSerialQueue()
        final class Unguarded: @unchecked Sendable {
            var total = 0
            var running = 0
            var overlaps = 0
            var last: [Int: Int] = [:]
            var outOfOrder = 0
        }
        let counts = Unguarded()
        let threads = 8
        let jobs = 5_000
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for seq in 0..<jobs {
                    queue.run {
                        // NB: only the queue guards these; two jobs at once would be seen here.
                        counts.running += 1
                        if counts.running != 1 { counts.overlaps += 1 }
                        if let previous = counts.last[thread], previous >= seq { counts.outOfOrder += 1 }
                        counts.last[thread] = seq
                        counts.total += 1
                        counts.running -= 1
                    }
                }
                done.leave()
            }
        }
        done.wait()
        let total = await queue.perform { counts.total }
        #expect(total == threads * jobs)
        #expect(counts.overlaps == 0)
        #expect(counts.outOfOrder == 0)
    }

    @Test func aJobSubmittedFromAJobRunsAfterItAndNeverInsideIt() async {
        let queue = InlineSerialQueue()
        let trace = Mutex<[String]>([])
        queue.run {
            trace.withLock { $0.append("outer begins") }
            queue.run { trace.withLock { $0.append("inner") } }
            trace.withLock { $0.append("outer ends") }
        }
        #expect(trace.withLock { $0 } == ["outer begins", "outer ends", "inner"])
        #expect(await queue.perform { 42 } == 42)
    }

    @Test func aSubmitterNeverWaitsForTheRunner() async {
        let queue = InlineSerialQueue()
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let ran = Mutex<[Int]>([])
        Thread.detachNewThread {
            queue.run {
                started.signal()
                release.wait()
                ran.withLock { $0.append(1) }
            }
        }
        started.wait()
        // The runner is busy: this returns at once, and the job runs after the runner's.
        queue.run { ran.withLock { $0.append(2) } }
        #expect(ran.withLock { $0 }.isEmpty)
        release.signal()
        _ = await queue.perform { 0 }
        #expect(ran.withLock { $0 } == [1, 2])
    }

    @Test func aThreadThatMayWaitTakesOverAsRunnerAfterTheJobsBeforeIt() async {
        let queue = InlineSerialQueue()
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let trace = Mutex<[String]>([])
        let runnerReturned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            queue.run {
                started.signal()
                release.wait()
                trace.withLock { $0.append("first") }
            }
            runnerReturned.signal()
        }
        started.wait()
        queue.run { trace.withLock { $0.append("queued") } }
        let taker = Mutex<(thread: pthread_t?, ranOn: pthread_t?)>((nil, nil))
        let tookOver = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            taker.withLock { $0.thread = pthread_self() }
            queue.runOnThisThread {
                taker.withLock { $0.ranOn = pthread_self() }
                trace.withLock { $0.append("taken over") }
            }
            tookOver.signal()
        }
        release.signal()
        tookOver.wait()
        runnerReturned.wait()
        #expect(trace.withLock { $0 } == ["first", "queued", "taken over"])
        let (thread, ranOn) = taker.withLock { $0 }
        #expect(thread.flatMap { t in ranOn.map { pthread_equal(t, $0) != 0 } } == true)
        #expect(await queue.perform { trace.withLock { $0.count } } == 3)
    }

    // MARK: Handlers on the reading thread

    @Test func handlersStartOnTheThreadThatReadTheRequest() async throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watchSession = try SocketSession(socketPath: root + "/s", role: .listen, directory: root + "/b")
        let phoneSession = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        defer {
            phoneSession.invalidate()
            watchSession.invalidate()
        }
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: InMemoryStore(), clock: ContinuousClock())
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: InMemoryStore(), clock: ContinuousClock())
        // An inline handler runs where the request was read; an async one starts there and runs
        // there until it first suspends.
        try watch.register(OnReader.self, inline: { _ in watchSession.isReader })
        try watch.register(AsyncOnReader.self) { (_: AsyncOnReader) async -> Bool in
            let before = watchSession.isReader
            await Task.yield()
            return before
        }
        try await watch.start()
        try await phone.start()
        for _ in 0..<500 where !phone.status.isReachable { try await Task.sleep(for: .milliseconds(10)) }
        // A request that arrives while another job holds the connection's queue (a status event,
        // the tail of the previous answer's job on a pool thread) is run by that job's thread, so
        // under load some requests are not handled on the reader. Before the fast path none was:
        // every handler ran in a detached task.
        var inline = 0
        var async = 0
        for _ in 0..<20 where try await phone.send(OnReader(), strategy: .messageOnly, durable: false) {
            inline += 1
        }
        for _ in 0..<20 where try await phone.send(AsyncOnReader(), strategy: .messageOnly, durable: false) {
            async += 1
        }
        #expect(inline > 0, "no inline handler ran on the reading thread")
        #expect(async > 0, "no async handler started on the reading thread")
        await phone.stop()
        await watch.stop()
    }

    @Test func inlineHandlersThatThrowAnswerWithTheirError() async throws {
        let (phoneSession, watchSession) = InMemorySession.makePair()
        let watch = WatchConnection(origin: .watch, session: watchSession, store: InMemoryStore(), clock: ContinuousClock())
        let phone = WatchConnection(origin: .phone, session: phoneSession, store: InMemoryStore(), clock: ContinuousClock())
        struct Refused: Error {}
        try watch.register(
            ThreadName.self,
            inline: { request in
                if request.step < 0 { throw WatchLinkError("test.negative", "negative step") }
                if request.step == 0 { throw Refused() }
                return "ok"
            })
        #expect(throws: WatchLinkError.self) { try watch.register(ThreadName.self, inline: { _ in "again" }) }
        try await watch.start()
        try await phone.start()
        #expect(try await phone.send(ThreadName(step: 1)) == "ok")
        await #expect(throws: WatchLinkError.self) { try await phone.send(ThreadName(step: -1)) }
        do {
            _ = try await phone.send(ThreadName(step: -1))
        } catch {
            #expect(error.code.rawValue == "test.negative")
        }
        do {
            _ = try await phone.send(ThreadName(step: 0))
        } catch {
            #expect(error.code == .handlerFailed)
        }
        // The registry still hands out an inline handler as an asynchronous one.
        let erased = try #require(watch.handlers.handler(for: ThreadName.typeKey))
        let payload = try WireCodec.encodeValue(ThreadName(step: 2))
        #expect(try WireCodec.decodeValue(String.self, from: try await erased(payload), field: "r") == "ok")
    }

    // MARK: The reading thread never waits to write

    /// Echoes every message back from within the callback, on the reading thread, until its hop
    /// count runs out.
    final class Echoer: WatchSessionDelegate, @unchecked Sendable {
        let received = Mutex(0)
        let failures = Mutex(0)
        var session: SocketSession?

        func sessionDidActivate(_ state: SessionActivationState) {}
        func sessionReachabilityDidChange(_ isReachable: Bool) {}
        func sessionDidReceive(_ data: Data, on channel: SessionChannel) {
            received.withLock { $0 += 1 }
            guard let hops = data.first, hops > 0, let session else { return }
            var reply = data
            reply[reply.startIndex] = hops - 1
            do { try session.sendMessage(reply) } catch { failures.withLock { $0 += 1 } }
        }
    }

    @Test func readersThatAnswerFromTheirCallbacksNeverDeadlock() async throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // NB: a long stall timeout: were the readers to block on each other's full sockets, the
        // exchange would stop for a minute instead of recovering by reconnecting.
        let a = try SocketSession(socketPath: root + "/s", role: .listen, directory: root + "/a", stallTimeout: .seconds(60))
        let b = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/b", stallTimeout: .seconds(60))
        let echoA = Echoer()
        let echoB = Echoer()
        echoA.session = a
        echoB.session = b
        a.activate(delegate: echoA)
        b.activate(delegate: echoB)
        defer {
            a.invalidate()
            b.invalidate()
        }
        for _ in 0..<500 where !(a.isReachable && b.isReachable) { try await Task.sleep(for: .milliseconds(10)) }
        let messages = 40
        let hops: UInt8 = 4
        let body = Data([hops]) + Data(repeating: 0x5A, count: 60_000)
        // Both sides send at once, far more than the sockets buffer; each message then bounces
        // `hops` times, answered on the reading thread of whichever side received it.
        for session in [a, b] {
            Thread.detachNewThread {
                for _ in 0..<messages { try? session.sendMessage(body) }
            }
        }
        // NB: bounded: readers blocked on each other's full sockets would stall here for the
        // stall timeout, and this fails instead of waiting that long.
        let expected = 2 * messages * (Int(hops) + 1)
        var total = 0
        for _ in 0..<2_000 {
            total = echoA.received.withLock { $0 } + echoB.received.withLock { $0 }
            if total >= expected { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(total == expected)
        #expect(echoA.failures.withLock { $0 } + echoB.failures.withLock { $0 } == 0)
    }

    /// Answers every message with 60 KB, from within the callback, and records reachability.
    final class Flooder: WatchSessionDelegate, @unchecked Sendable {
        let lostConnection = Mutex(false)
        var session: SocketSession?

        func sessionDidActivate(_ state: SessionActivationState) {}
        func sessionReachabilityDidChange(_ isReachable: Bool) {
            if !isReachable { lostConnection.withLock { $0 = true } }
        }
        func sessionDidReceive(_ data: Data, on channel: SessionChannel) {
            try? session?.sendMessage(Data(repeating: 0x42, count: 60_000))
        }
    }

    @Test func aCounterpartThatNeverReadsCannotMakeTheReaderQueueWithoutBound() async throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        // NB: a long stall timeout, so only the queue's bound can end the connection here.
        let session = try SocketSession(
            socketPath: root + "/s", role: .connect, directory: root + "/a", stallTimeout: .seconds(60))
        let flooder = Flooder()
        flooder.session = session
        session.activate(delegate: flooder)
        defer { session.invalidate() }
        let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
        defer { close(peer.fd) }
        // 400 answers of 60 KB are 24 MB; the reader may queue 8 MiB beyond what the socket holds.
        // NB: once it has, the session drops the connection, which may come before the last asks
        // are written: the writes that fail then are what the test is about, not a fault.
        for n in 0..<400 {
            guard peer.trySend(.message, Array("ask \(n)".utf8)) else { break }
        }
        for _ in 0..<1_000 where !flooder.lostConnection.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(flooder.lostConnection.withLock { $0 })
    }

    @Test func aSharedStateUpdateIsRefusedBeforeStartAndAfterStopWithoutHanging() async throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (phoneSession, _) = InMemorySession.makePair()
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: try FileStore(path: root + "/a/phone.log"), clock: ContinuousClock())
        let mood = try await phone.sharedState("mood", initial: "calm")
        // Before start, the engine has not read its log: refused, not hung and not lost later.
        do {
            try await mood.update("curious")
            Issue.record("an update before start() succeeded")
        } catch {
            #expect(error.code == .cancelled)
        }
        #expect(mood.value == "calm")
        try await phone.start()
        try await mood.update("happy")
        await phone.stop()
        do {
            try await mood.update("gone")
            Issue.record("an update after stop() succeeded")
        } catch {
            #expect(error.code == .cancelled)
        }
    }

    // MARK: Durable work on any thread

    @Test func compactionDuringConcurrentDurablePostsLosesNothing() async throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (phoneSession, watchSession) = InMemorySession.makePair()
        var configuration = LinkEngine.Configuration()
        configuration.compactionThreshold = 20
        configuration.outboxLimit = 10_000
        let phoneStore = try FileStore(path: root + "/a/phone.log")
        let watchStore = try FileStore(path: root + "/b/watch.log")
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: phoneStore, clock: ContinuousClock(), configuration: configuration)
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: watchStore, clock: ContinuousClock(), configuration: configuration)
        let seen = Mutex<[Int: Int]>([:])
        try watch.register(Bulk.self) { (request: Bulk) -> WatchAck in
            seen.withLock { $0[request.index, default: 0] += 1 }
            return WatchAck()
        }
        try await watch.start()
        try await phone.start()
        let senders = 32
        let each = 16
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for n in 0..<each { try await phone.post(Bulk(index: sender * each + n), strategy: .messageOnly) }
                }
            }
            try await group.waitForAll()
        }
        // NB: a request whose message went while the watch was busy is sent again after the reply
        // timeout; give the retries time on a loaded machine.
        for _ in 0..<6_000 where seen.withLock({ $0.count }) < senders * each {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen.withLock { $0.count } == senders * each)
        #expect(seen.withLock { $0.values.allSatisfy { $0 == 1 } })
        await phone.stop()
        await watch.stop()
        // The phone's log was compacted: its snapshot holds little, as every post settled. The
        // watch's keeps an inbox entry per request until its deadline (one of the two records each
        // request wrote), so compacting it would not pay: it is left within three times that.
        #expect(try phoneStore.load().count < phoneStore.statistics.records)
        let watchRecords = try watchStore.load().count
        // NB: at least each request's started mark (synced before its handler ran); a result may still
        // have been waiting for its sync when the watch stopped.
        #expect(watchRecords >= senders * each && watchRecords < 3 * (senders * each + 3), "\(watchRecords) records")
    }
}
