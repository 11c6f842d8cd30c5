// Dispatcher throughput for a small request against the floor of doing only the JSON work
// for the same bytes with JSONDecoder/JSONEncoder, measured in the same run.
//
//   swift run -c release BridgeBenchmark [iterations]

import BenchmarkArguments
import Foundation
import PWAKitCore

let iterations = BenchmarkArguments.parse(
    name: "BridgeBenchmark", usage: "usage: BridgeBenchmark [iterations]   (200000 if not given)"
) {
    try $0.leadingInteger("iterations", default: 200_000)
}
let message = #"{"id":"42","module":"echo","action":"echo","payload":{"value":1,"text":"hello"}}"#
let messageBytes = Array(message.utf8)
let clock = ContinuousClock()

struct EchoModule: PWAModule {
    static let moduleName = "echo"
    static let supportedActions = ["echo"]
    func handle(action: String, payload: JSONValue?, context: ModuleContext) async throws -> JSONValue? { payload }
}

// The floor: the same bytes into an equivalent typed struct, the equivalent response out.
struct TypedPayload: Codable { var value: Int; var text: String }
struct TypedRequest: Codable { var id: String; var module: String; var action: String; var payload: TypedPayload }
struct TypedResponse: Codable { var id: String; var success: Bool; var data: TypedPayload }

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func measure(_ label: String, _ body: () throws -> Void) rethrows -> Duration {
    for _ in 0..<(iterations / 20) { try body() }  // warm-up
    let start = clock.now
    for _ in 0..<iterations { try body() }
    return start.duration(to: clock.now)
}

func measureAsync(_ body: @Sendable () async -> Void) async -> Duration {
    for _ in 0..<(iterations / 20) { await body() }
    let start = clock.now
    for _ in 0..<iterations { await body() }
    return start.duration(to: clock.now)
}

func perCall(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
}

func format(_ nanoseconds: Double) -> String { String(format: "%8.0f ns", nanoseconds) }

actor Hop { func noop() {} }

@main struct BridgeBenchmark {
    static func main() async throws {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        let data = Data(messageBytes)
        let floor = try measure("floor") {
            let request = try decoder.decode(TypedRequest.self, from: data)
            blackHole(try encoder.encode(TypedResponse(id: request.id, success: true, data: request.payload)))
        }

        var registry = ModuleRegistry()
        try registry.register(EchoModule())
        let configuration = PWAConfiguration(
            app: AppSection(name: "Bench", bundleId: "dev.pwakit.bench", startUrl: "https://bench.example/"),
            origins: OriginsSection(allowed: ["bench.example"]))
        let dispatcher = BridgeDispatcher(registry: registry, configuration: configuration)
        let page = await dispatcher.openPage(origin: "https://bench.example", grant: .all) { _ in }
        guard let check = await dispatcher.handle(message, from: page)?.json,
            check == #"{"id":"42","success":true,"data":{"text":"hello","value":1}}"#
        else { fatalError("the dispatcher did not answer the benchmark message correctly") }
        let ours = await measureAsync {
            blackHole(await dispatcher.handle(message, from: page)?.json)
        }

        // Per-stage breakdown: each stage alone on the same input.
        let limits = BridgeLimits()
        let idStage = measure("id") {
            messageBytes.withUnsafeBufferPointer { blackHole(MessageIDScanner.readableID(in: $0)) }
        }
        let decodeStage = try measure("decode") {
            let value = try JSONParser(maxDepth: limits.maxDepth).parse(data)
            blackHole(try BridgeMessage(validating: value, id: "42"))
        }
        let grant = BridgeGrant.all
        let routeStage = measure("route") {
            blackHole(grant.permits(module: "echo", action: "echo"))
            if case .enabled(let module)? = registry.entry(named: "echo") {
                blackHole(type(of: module).supportedActions.contains("echo"))
            }
        }
        let hop = Hop()
        let hopStage = await measureAsync { await hop.noop() }
        let module = EchoModule()
        let context = ModuleContext(
            callID: "42", caller: BridgeCaller(origin: "https://bench.example", pageLoad: page, grant: .all),
            app: AppIdentity(name: "Bench", bundleID: "dev.pwakit.bench"), configuration: configuration, emit: { _ in })
        let payload: JSONValue = ["value": 1, "text": "hello"]
        let handlerStage = await measureAsync {
            blackHole(try? await module.handle(action: "echo", payload: payload, context: context))
        }
        let taskStage = await measureAsync {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Task.detached { continuation.resume() }
            }
        }
        let response = BridgeResponse.success(id: "42", data: payload)
        let encodeStage = measure("encode") { blackHole(response.json) }
        let telemetry = BridgeTelemetry()
        let record = BridgeCallRecord(
            module: "echo", action: "echo", duration: .microseconds(20), requestBytes: 80, responseBytes: 60, outcome: "ok")
        let telemetryStage = measure("telemetry") { telemetry.record(record) }

        let floorNs = perCall(floor)
        let oursNs = perCall(ours)
        print("PWAKit bridge benchmark: \(iterations) sequential calls, \(messageBytes.count)-byte request")
        print("floor  (JSONDecoder typed decode + JSONEncoder typed encode): \(format(floorNs))/call")
        print("ours   (BridgeDispatcher.handle, bytes in → response JSON out): \(format(oursNs))/call")
        print(String(format: "ratio  ours / floor = %.2f", oursNs / floorNs))
        print("stages (each measured alone):")
        print("  id extraction          \(format(perCall(idStage)))")
        print("  decode + validate      \(format(perCall(decodeStage)))")
        print("  routing + grant check  \(format(perCall(routeStage)))")
        print("  actor hop (round trip) \(format(perCall(hopStage)))")
        print("  handler (echo)         \(format(perCall(handlerStage)))")
        print("  handler task spawn     \(format(perCall(taskStage)))")
        print("  encode response        \(format(perCall(encodeStage)))")
        print("  telemetry (log+metrics)\(format(perCall(telemetryStage)))")
    }
}
