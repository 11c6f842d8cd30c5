import PWAKitCore
import Synchronization

/// Echoes its payload; `fail` throws a namespaced error; `emit` sends an event.
struct EchoModule: PWAModule {
    static let moduleName = "echo"
    static let supportedActions = ["echo", "fail", "crash", "emit", "nothing"]

    struct Oops: Error, CustomStringConvertible {
        var description: String { "oops" }
    }

    func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? {
        switch action {
        case "echo": return payload
        case "fail": throw BridgeError(.module("echo", "failed"), "it failed", details: ["why": "asked to"])
        case "crash": throw Oops()
        case "emit":
            context.emit("echo.event", data: payload)
            return true
        default: return nil
        }
    }
}

/// Never returns until cancelled, or `release`d by the test.
struct SlowModule: PWAModule {
    static let moduleName = "slow"
    static let supportedActions = ["wait", "stubborn"]
    static let featureFlag: String? = nil

    let gate: Gate

    func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? {
        if action == "stubborn" {
            // Ignores cancellation: only the gate ends it.
            await gate.wait(cancellable: false)
            return "late"
        }
        await gate.wait(cancellable: true)
        try Task.checkCancellation()
        return "released"
    }
}

/// A one-shot latch tests open to let waiting handlers finish.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var waiting: Int { state.withLock { $0.waiters.count } }

    func wait(cancellable: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }
}

struct Greeting: Codable, Sendable, Equatable {
    var name: String
    var times: Int?
    var tags: [String]?
}

struct GreetingResult: Codable, Sendable, Equatable {
    var text: String
}

/// A typed module.
struct GreeterModule: ActionModule {
    static let moduleName = "greeter"
    static let featureFlag: String? = "share"
    static let actions = ModuleActions<GreeterModule>()
        .action("hello", payload: Greeting.self, result: GreetingResult.self) { _, greeting, _ in
            guard (greeting.times ?? 1) > 0 else {
                throw BridgeError.field(.invalidPayload, path: "payload.times", "must be positive")
            }
            return GreetingResult(text: String(repeating: "Hello, \(greeting.name)! ", count: greeting.times ?? 1))
        }
        .action("ping", result: String.self) { _, _ in "pong" }
        .action("quiet", result: NoResult.self) { _, _ in NoResult() }
}
