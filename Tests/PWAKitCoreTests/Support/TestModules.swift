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
    private struct State {
        var open = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits until the gate opens; a `cancellable` wait also ends when its task is cancelled.
    func wait(cancellable: Bool) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resume = state.withLock { state in
                    if state.open || (cancellable && Task.isCancelled) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resume { continuation.resume() }
            }
        } onCancel: {
            guard cancellable else { return }
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
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
