import Foundation
import Synchronization
import Testing

@testable import WatchLink

/// Tasks that prefer a connection's executor: resumed where the connection's jobs run, with
/// every guarantee of a task on the global executor.
@Suite struct ConnectionExecutorTests {
    struct Double: WatchRequest {
        typealias Response = Int
        var value: Int
    }

    struct Never: WatchRequest {
        typealias Response = Int
    }

    /// Runs `body` with a phone connected over sockets to a watch that doubles values and never
    /// answers `Never`, in a directory of its own (passed along); stops and removes it all after.
    static func withPair(
        _ body: (_ phone: WatchConnection, _ phoneSession: SocketSession, _ root: String) async throws -> Void
    ) async throws {
        let root = FastPathTests.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watchSession = try SocketSession(socketPath: root + "/s", role: .listen, directory: root + "/b")
        let phoneSession = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        defer {
            phoneSession.invalidate()
            watchSession.invalidate()
        }
        let watch = WatchConnection(origin: .watch, session: watchSession, store: InMemoryStore(), clock: ContinuousClock())
        let phone = WatchConnection(origin: .phone, session: phoneSession, store: InMemoryStore(), clock: ContinuousClock())
        try watch.register(Double.self, inline: { $0.value * 2 })
        try watch.register(Never.self) { _ in
            try await Task.sleep(for: .seconds(3600))
            return 0
        }
        try await watch.start()
        try await phone.start()
        for _ in 0..<500 where !phone.status.isReachable { try await Task.sleep(for: .milliseconds(10)) }
        try await body(phone, phoneSession, root)
        await phone.stop()
        await watch.stop()
    }

    @Test func aTaskThatPrefersItIsResumedOnTheThreadThatReadItsResponse() async throws {
        try await Self.withPair { phone, phoneSession, root in
            let (answers, onReader) = try await withTaskExecutorPreference(phone.taskExecutor) {
                var answers: [Int] = []
                var onReader = 0
                // NB: 50 round trips at least, and on (up to 500) until one ran on the reader.
                var value = 0
                while value < 50 || (onReader == 0 && value < 500) {
                    answers.append(try await phone.send(Double(value: value), strategy: .messageOnly, durable: false))
                    if phoneSession.isReader { onReader += 1 }
                    value += 1
                }
                return (answers, onReader)
            }
            #expect(answers == (0..<answers.count).map { $0 * 2 })
            // NB: when the reader finds another thread running the connection's jobs (a timer's, say),
            // that thread settles the response and runs the task; on the global executor no task
            // ever runs on the reader.
            #expect(onReader > 0)
        }
    }

    @Test func tasksOnItAndOnTheGlobalExecutorShareAConnection() async throws {
        try await Self.withPair { phone, phoneSession, root in
            let executor = phone.taskExecutor
            let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<32 {
                    group.addTask(executorPreference: worker.isMultiple(of: 2) ? executor : nil) {
                        var wrong = 0
                        for n in 0..<100 {
                            let value = worker * 1_000 + n
                            let durable = n.isMultiple(of: 10)
                            if try await phone.send(
                                Double(value: value), strategy: .messageWithUserInfoFallback, durable: durable)
                                != value * 2
                            {
                                wrong += 1
                            }
                        }
                        return wrong
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(wrong == 0)
        }
    }

    @Test func cancellingATaskOnItCancelsItsRequest() async throws {
        try await Self.withPair { phone, phoneSession, root in
            let call = Task(executorPreference: phone.taskExecutor) { () async throws(WatchLinkError) -> Int in
                // NB: a deadline long enough that no stall of a loaded machine between the start and
                // the cancel lets it pass first (the CLI suites' runs can hold the cooperative
                // threads for many seconds).
                try await phone.send(Never(), strategy: .messageOnly, timeout: .seconds(120), durable: false)
            }
            try await Task.sleep(for: .milliseconds(50))
            call.cancel()
            // NB: `cancelled`, not `timeout`: the call ends when its task is cancelled.
            let result = await call.result
            #expect(throws: WatchLinkError.self) { try result.get() }
            if case .failure(let error) = result { #expect((error as? WatchLinkError)?.code == .cancelled) }
            // The connection still serves tasks on its executor after the cancellation.
            // NB: not `messageOnly`, whose requests the watch runs in arrival order: the cancelled
            // one's handler runs on, and holds those up until its deadline.
            let doubled = try await Task(executorPreference: phone.taskExecutor) {
                try await phone.send(Double(value: 21), strategy: .messageWithUserInfoFallback, durable: false)
            }.value
            #expect(doubled == 42)
        }
    }

    @Test func aTaskOnItCanCallEveryPartOfTheConnectionWithoutDeadlock() async throws {
        try await Self.withPair { phone, phoneSession, root in
            // Started while the connection is idle, so the first job runs on a thread of the pool.
            let value = try await Task(executorPreference: phone.taskExecutor) { () async throws -> Int in
                let events = await phone.events()
                let state = try await phone.sharedState("mood", initial: "calm")
                try await state.update("busy")
                try await Task.sleep(for: .milliseconds(5))
                let doubled = try await phone.send(Double(value: 4), strategy: .messageOnly, durable: false)
                _ = events
                return doubled + (state.value == "busy" ? 1 : 0)
            }.value
            #expect(value == 9)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskOnItMakesFileCallsFromWithinTheReadersCallback() async throws {
        try await Self.withPair { phone, phoneSession, root in
            let file = root + "/note.txt"
            try Data("a note".utf8).write(to: URL(fileURLWithPath: file))
            // NB: resumed by a response, the task runs inside the session's callback on the reading
            // thread; a file call made there (cancelling calls the session's delegate back) must not
            // wait for that callback to end.
            let (outstanding, progress, onReader) = try await withTaskExecutorPreference(phone.taskExecutor) {
                var outstanding: [Int] = []
                var progress: [Bool] = []
                var onReader = 0
                // NB: five rounds at least, and on until one ran inside the callback: whether a
                // response resumes the task on the reading thread depends on where the executor's
                // jobs are running when it arrives (with eight suites at once, five rounds in a row
                // once resumed on a thread of the pool).
                var value = 0
                while value < 5 || (onReader == 0 && value < 200) {
                    _ = try await phone.send(Double(value: value), strategy: .messageOnly, durable: false)
                    if phoneSession.isReader { onReader += 1 }
                    let transfer = try await phone.transferFile(URL(fileURLWithPath: file))
                    await phone.cancelFileTransfer(transfer.id)
                    progress.append(await phone.progress(ofFileTransfer: transfer.id) == nil)
                    outstanding.append(await phone.outstandingFileTransfers.count)
                    value += 1
                }
                return (outstanding, progress, onReader)
            }
            // NB: at least once inside the callback, or the test proves nothing.
            #expect(onReader > 0)
            #expect(outstanding.count >= 5 && outstanding.allSatisfy { $0 == 0 })
            #expect(progress.count == outstanding.count && progress.allSatisfy { $0 })
        }
    }
}
