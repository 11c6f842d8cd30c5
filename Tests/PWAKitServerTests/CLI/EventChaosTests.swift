import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PWAKitRetry
import PWAKitServer
import PWAKitTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the fault layer in front of the events endpoint did.
struct FaultTally: Sendable {
    var passed = 0
    var unavailable = 0
    var failed = 0
    var lostAfterStoring = 0
    var slowAfterStoring = 0
}

/// Answers `/v1/events` with faults drawn from a seeded generator — 503 with `Retry-After: 0` or
/// 500 before storing, 502 or a stall past the client's timeout after storing (the answer is lost,
/// the events are stored) — and passes everything else to the platform server.
struct FaultyResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ServerRequestContext {
    final class Dice: Sendable {
        let random: Mutex<SeededRandom>
        let tally = Mutex(FaultTally())
        init(seed: UInt64) { random = Mutex(SeededRandom(seed: seed)) }
    }

    let inner: Inner
    let dice: Dice

    init(inner: Inner, seed: UInt64) {
        self.inner = inner
        dice = Dice(seed: seed)
    }

    var tally: FaultTally { dice.tally.withLock { $0 } }

    func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
        guard request.uri.path == "/v1/events" else { return try await inner.respond(to: request, context: context) }
        let dice = dice
        let roll = dice.random.withLock { Int($0.next() % 100) }
        switch roll {
        case 0..<8:
            dice.tally.withLock { $0.unavailable += 1 }
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
        case 8..<14:
            dice.tally.withLock { $0.failed += 1 }
            return Response(status: .internalServerError)
        case 14..<22:
            _ = try await inner.respond(to: request, context: context)
            dice.tally.withLock { $0.lostAfterStoring += 1 }
            return Response(status: .badGateway)
        case 22..<25:
            let response = try await inner.respond(to: request, context: context)
            dice.tally.withLock { $0.slowAfterStoring += 1 }
            try await Task.sleep(for: .milliseconds(2500))
            return response
        default:
            dice.tally.withLock { $0.passed += 1 }
            return try await inner.respond(to: request, context: context)
        }
    }
}

/// A child process whose standard output is read line by line as it comes.
final class LineProcess: Sendable {
    final class Lines: Sendable {
        let state = Mutex<(complete: [String], partial: Data)>(([], Data()))
    }

    let process: Process
    private let lines = Lines()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = PWAKitBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PWAKIT_EXIT_WITH_PARENT": String(ProcessInfo.processInfo.processIdentifier)
        ]) { $1 }
        .merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let lines = self.lines
        out.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            lines.state.withLock { state in
                state.partial.append(chunk)
                while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    state.complete.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                    state.partial.removeSubrange(state.partial.startIndex...newline)
                }
            }
        }
        try process.run()
    }

    /// The complete lines printed so far.
    var output: [String] { lines.state.withLock { $0.complete } }

    /// Kills the process with SIGKILL and waits for it.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the process to exit by itself.
    func wait() { process.waitUntilExit() }
}

@Suite("Event relay under kill -9 and a failing server")
struct EventChaosTests {
    @Test(
        "10,000 events recorded by killed producers, sent by killed relays through 5xx and lost answers: 0 lost, 0 stored twice")
    func nothingLostNothingTwice() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["PWAKIT_CHAOS_SEED"] ?? "") ?? 0xE7E7_2026
        let target = Int(ProcessInfo.processInfo.environment["PWAKIT_CHAOS_EVENTS"] ?? "") ?? 10_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("event-chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let blobRoot = directory.appendingPathComponent("blobs")
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        let server = try await PlatformServer.make(
            storage: try await SQLStorage.sqlite(path: directory.appendingPathComponent("server.sqlite").path),
            blobs: try FileBlobStore(root: blobRoot), configuration: configuration)
        let email = "chaos@example.com"
        let password = "chaos-password-1"
        _ = try await server.apply(ServerSeed(users: [.init(email: email, password: password, role: "user")]))
        let responder = FaultyResponder(inner: server.router().buildResponder(), seed: seed ^ 0xFA17)
        let app = Application(responder: responder, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let buffer = directory.appendingPathComponent("buffer").path

        try await app.test(.live) { client in
            let port = try #require(client.port)
            var random = SeededRandom(seed: seed)
            let drainArguments = [
                "events", "relay", "--buffer", buffer, "--max-events", "1000000", "--server", "http://127.0.0.1:\(port)",
                "--email", email,
                "--timeout", "2", "--max-backoff", "1",
            ]
            let relayArguments = drainArguments + ["--interval", "1"]
            let environment = ["PWAKIT_PASSWORD": password]
            var acknowledged: Set<String> = []
            var producerKills = 0
            var relayKills = 0
            var relay = try LineProcess(relayArguments, environment: environment)
            var relayDeadline = Date().addingTimeInterval(Double(random.next() % 500 + 100) / 1000)
            while acknowledged.count < target {
                // Two producers at once, each killed at a random instant (or finishing its run).
                let producers = try (0..<2).map { index in
                    try LineProcess([
                        "events", "record", "--buffer", buffer, "--max-events", "1000000", "--name", "chaos_event", "--source",
                        "cli",
                        "--count", "20000", "--property", "producer=\(index)",
                    ])
                }
                let lifetime = Double(random.next() % 280 + 20) / 1000
                let started = Date()
                while Date().timeIntervalSince(started) < lifetime && producers.contains(where: { $0.process.isRunning }) {
                    try await Task.sleep(for: .milliseconds(20))
                    if Date() > relayDeadline {
                        relay.kill()
                        relayKills += 1
                        relay = try LineProcess(relayArguments, environment: environment)
                        relayDeadline = Date().addingTimeInterval(Double(random.next() % 500 + 100) / 1000)
                    }
                }
                for producer in producers {
                    if producer.process.isRunning { producerKills += 1 }
                    producer.kill()
                    acknowledged.formUnion(producer.output.filter { $0.count == 36 })
                }
            }
            relay.kill()
            relayKills += 1

            // The last relay drains the buffer through the same faults, then exits.
            let drain = try LineProcess(drainArguments + ["--once"], environment: environment)
            drain.wait()
            #expect(drain.process.terminationStatus == 0)

            let user = try #require(try await server.storage.user(email: email))
            let stored = try await server.storage.events(userId: user.id)
            let storedIds = Set(stored.map(\.id))
            let lost = acknowledged.subtracting(storedIds)
            let tally = responder.tally
            let dropped = try await server.storage.droppedEventCount(userId: user.id)
            print(
                """
                event chaos seed=\(seed) acknowledged=\(acknowledged.count) stored=\(stored.count) lost=\(lost.count) dropped=\(dropped) \
                stored_twice=\(stored.count - storedIds.count) unacknowledged_stored=\(storedIds.subtracting(acknowledged).count) \
                producer_kills=\(producerKills) relay_kills=\(relayKills) faults{unavailable=\(tally.unavailable) \
                failed=\(tally.failed) lost_after_storing=\(tally.lostAfterStoring) slow_after_storing=\(tally.slowAfterStoring) \
                passed=\(tally.passed)}
                """)
            #expect(
                lost.isEmpty, "seed \(seed): \(lost.count) acknowledged events never reached the server, e.g. \(lost.prefix(3))")
            #expect(stored.count == storedIds.count)
            #expect(dropped == 0, "the buffer dropped events: its limit is above what the test records")
            // An event a producer recorded but was killed before printing may be stored too: at most one per kill.
            #expect(storedIds.subtracting(acknowledged).count <= producerKills)
            #expect(stored.allSatisfy { $0.name == "chaos_event" && $0.source == "cli" })
            #expect(tally.lostAfterStoring + tally.slowAfterStoring > 0)
            let status = try await PWAKitBinary.run(["events", "status", "--buffer", buffer])
            #expect(status.stdout == "queued 0, dropped 0\n")
        }
        try await server.storage.close()
    }
}
