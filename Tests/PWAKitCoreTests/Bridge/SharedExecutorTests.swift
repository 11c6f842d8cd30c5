import PWAKitTesting
import Synchronization
import Testing

@testable import PWAKitCore

/// A dispatcher that shares the main actor's executor, as the Linux host's does: a call whose
/// handler does not suspend is answered before the task that made it yields, and calls that
/// do suspend still time out, cancel and end with their page.
@MainActor @Suite struct SharedExecutorTests {
    func dispatcher(_ modules: [any PWAModule], clock: ManualClock = ManualClock()) throws -> BridgeDispatcher {
        var registry = ModuleRegistry()
        for module in modules { try registry.register(module) }
        return BridgeDispatcher(
            registry: registry, configuration: .testing, clock: clock, executor: MainActor.sharedUnownedExecutor)
    }

    @Test func aHandlerThatDoesNotSuspendIsAnsweredWithoutLeavingTheThread() async throws {
        let dispatcher = try dispatcher([EchoModule()])
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        var answer: String?
        Task.immediate { @MainActor in
            answer = await dispatcher.handleInline(#"{"id":"1","module":"echo","action":"echo","payload":7}"#, from: page)?.json
        }
        // NB: no await between starting the task and this line: the answer is already there.
        #expect(answer == #"{"id":"1","success":true,"data":7}"#)
        var refused: String?
        Task.immediate { @MainActor in
            refused = await dispatcher.handleInline(#"{"id":"2","module":"nope","action":"x"}"#, from: page)?.json
        }
        #expect(refused?.contains(#""code":"unknown_module""#) == true)
    }

    @Test func theJSONFormAnswersTheSameTextAtOnceAndRecordsItsSize() async throws {
        let sizes = SizeLog()
        var registry = ModuleRegistry()
        try registry.register(EchoModule())
        let dispatcher = BridgeDispatcher(
            registry: registry, configuration: .testing,
            telemetry: BridgeTelemetry(observer: { record in sizes.add(record.responseBytes) }),
            clock: ManualClock(), executor: MainActor.sharedUnownedExecutor)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        var answer: String?
        Task.immediate { @MainActor in
            answer = await dispatcher.handleInlineJSON(
                #"{"id":"1","module":"echo","action":"echo","payload":[1,"é"]}"#, from: page)
        }
        #expect(answer == #"{"id":"1","success":true,"data":[1,"é"]}"#)
        #expect(sizes.all == [answer?.utf8.count ?? -1])
        let unaddressable = await dispatcher.handleInlineJSON("{not json", from: page)
        #expect(unaddressable?.contains(#""type":"bridge.error""#) == true)
        #expect(sizes.all.last == unaddressable?.utf8.count)
        #expect(await dispatcher.handleInlineJSON(#"{"id":"9","cancel":true}"#, from: page) == nil)
        #expect(
            await dispatcher.handleInlineJSON(#"{"id":"2","module":"echo","action":"echo"}"#, from: PageLoadID(rawValue: 999))
                == nil)
    }

    @Test func suspendingHandlersStillTimeOutCancelAndEndWithTheirPage() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let dispatcher = try dispatcher([SlowModule(gate: gate)], clock: clock)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let answers = Answers()
        func send(_ id: String, _ extra: String = "") {
            Task.immediate { @MainActor in
                let json = await dispatcher.handleInline(
                    #"{"id":"\#(id)","module":"slow","action":"wait"\#(extra)}"#, from: page)?.json
                answers.set(id, json ?? "nil")
            }
        }
        send("timeout", #","timeoutMs":50"#)
        send("cancel")
        send("released")
        #expect(answers.isEmpty)
        #expect(await dispatcher.handleInline(#"{"id":"cancel","cancel":true}"#, from: page) == nil)
        #expect(await eventually { @Sendable in answers.get("cancel") != nil })
        #expect(answers.get("cancel")?.contains(#""code":"cancelled""#) == true)
        clock.advance(by: .milliseconds(50))
        #expect(await eventually { @Sendable in answers.get("timeout") != nil })
        #expect(answers.get("timeout")?.contains(#""code":"timeout""#) == true)
        gate.open()
        #expect(await eventually { @Sendable in answers.get("released") != nil })
        #expect(answers.get("released") == #"{"id":"released","success":true,"data":"released"}"#)

        let late = Gate()
        let second = try self.dispatcher([SlowModule(gate: late)])
        let closing = await second.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        let ended = Answers()
        Task.immediate { @MainActor in
            let json = await second.handleInline(#"{"id":"x","module":"slow","action":"wait"}"#, from: closing)?.json
            ended.set("x", json ?? "dropped")
        }
        await second.closePage(closing)
        #expect(await eventually { @Sendable in ended.get("x") != nil })
        #expect(ended.get("x") == "dropped")
        #expect(await second.inFlightCount == 0)
    }
}

/// Response sizes telemetry recorded, in order.
final class SizeLog: Sendable {
    private let values = Mutex<[Int]>([])
    func add(_ value: Int) { values.withLock { $0.append(value) } }
    var all: [Int] { values.withLock { $0 } }
}

/// Answers by call id, shared with the tasks that produce them.
final class Answers: Sendable {
    private let map = Mutex<[String: String]>([:])
    func set(_ id: String, _ value: String) { map.withLock { $0[id] = value } }
    func get(_ id: String) -> String? { map.withLock { $0[id] } }
    var isEmpty: Bool { map.withLock { $0.isEmpty } }
}
