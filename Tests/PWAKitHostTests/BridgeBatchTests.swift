import PWAKitCore
import Synchronization
import Testing

@testable import PWAKitHost

/// A batch the relay posted: the reply carries, in message order, the answers whose handlers
/// did not suspend; every other answer goes to `late` once, when it is ready.
@MainActor @Suite struct BridgeBatchTests {
    /// `batch.echo` answers its payload at once; `batch.wait` answers it when the gate opens.
    struct BatchModule: ActionModule {
        static let moduleName = "batch"
        static let actions = ModuleActions<BatchModule>()
            .action("echo", payload: JSONValue.self, result: JSONValue.self) { _, payload, _ in payload }
            .action("wait", payload: JSONValue.self, result: JSONValue.self) { module, payload, _ in
                await module.gate.wait()
                return payload
            }
        let gate: BatchGate
    }

    func dispatcher(gate: BatchGate, executor: UnownedSerialExecutor? = MainActor.sharedUnownedExecutor) throws
        -> BridgeDispatcher
    {
        var registry = ModuleRegistry()
        try registry.register(BatchModule(gate: gate))
        let configuration = PWAConfiguration(
            app: AppSection(name: "Batch", bundleId: "dev.pwakit.batch", startUrl: "https://app.example.com/"),
            origins: OriginsSection(allowed: ["app.example.com"]))
        return BridgeDispatcher(registry: registry, configuration: configuration, executor: executor)
    }

    func message(_ id: String, _ action: String, _ payload: Int) -> String {
        #"{"id":"\#(id)","module":"batch","action":"\#(action)","payload":\#(payload)}"#
    }

    @Test func quickAnswersComeInTheReplyInOrderAndSuspendedOnesLateAndOnce() async throws {
        let gate = BatchGate()
        let dispatcher = try dispatcher(gate: gate)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let late = LateAnswers()
        let reply = BridgeBatch.answer(
            [message("a", "echo", 1), message("b", "wait", 2), "{not json", message("c", "echo", 3), message("d", "nope", 4)],
            page: page, dispatcher: dispatcher
        ) { late.add($0) }
        let answers = try #require(try JSONParser.parse(reply).arrayValue)
        #expect(answers.count == 4)
        #expect(answers[0] == ["id": "a", "success": true, "data": 1])
        #expect(answers[1]["type"] == "bridge.error")
        #expect(answers[2] == ["id": "c", "success": true, "data": 3])
        #expect(answers[3]["id"] == "d" && answers[3]["code"] == "unknown_action")
        #expect(late.all.isEmpty)
        gate.open()
        #expect(await eventually { late.all.count == 1 })
        #expect(late.all == [#"{"id":"b","success":true,"data":2}"#])
    }

    @Test func aBatchOfNothingButSuspendedCallsRepliesWithAnEmptyArray() async throws {
        let gate = BatchGate()
        let dispatcher = try dispatcher(gate: gate)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let late = LateAnswers()
        let reply = BridgeBatch.answer(
            (0..<3).map { message("w\($0)", "wait", $0) }, page: page, dispatcher: dispatcher
        ) { late.add($0) }
        #expect(reply == "[]")
        gate.open()
        #expect(await eventually { late.all.count == 3 })
        #expect(Set(late.all) == Set((0..<3).map { #"{"id":"w\#($0)","success":true,"data":\#($0)}"# }))
    }

    @Test func aDispatcherOnItsOwnExecutorAnswersEverythingLate() async throws {
        let dispatcher = try dispatcher(gate: BatchGate(), executor: nil)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let late = LateAnswers()
        let reply = BridgeBatch.answer(
            [message("a", "echo", 1), message("b", "echo", 2)], page: page, dispatcher: dispatcher
        ) { late.add($0) }
        #expect(reply == "[]")
        #expect(await eventually { late.all.count == 2 })
        #expect(Set(late.all) == [#"{"id":"a","success":true,"data":1}"#, #"{"id":"b","success":true,"data":2}"#])
    }

    @Test func callsOfAClosedPageAreNeverAnswered() async throws {
        let gate = BatchGate()
        let dispatcher = try dispatcher(gate: gate)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let late = LateAnswers()
        let reply = BridgeBatch.answer([message("b", "wait", 2)], page: page, dispatcher: dispatcher) { late.add($0) }
        #expect(reply == "[]")
        await dispatcher.closePage(page)
        gate.open()
        #expect(await eventually { await dispatcher.inFlightCount == 0 })
        #expect(late.all.isEmpty)
        let closed = BridgeBatch.answer([message("a", "echo", 1)], page: page, dispatcher: dispatcher) { late.add($0) }
        #expect(closed == "[]")
        #expect(late.all.isEmpty)
    }
}

/// Answers that arrived after their batch was answered.
@MainActor final class LateAnswers {
    private(set) var all: [String] = []
    func add(_ answer: String) { all.append(answer) }
}

/// Suspends `wait()` callers until `open()`.
final class BatchGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// Yields until `condition` holds (at most 10,000 times).
@MainActor func eventually(_ condition: @MainActor () async -> Bool) async -> Bool {
    for _ in 0..<10_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}
