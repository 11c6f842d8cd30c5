import Foundation
import PWAKitAPI
import PWAKitEvents
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

/// A pretend events endpoint: stores by id like the server, and fails as told before or after storing.
final class FakeEventServer: HTTPTransport {
    enum Fault: Sendable {
        case status(Int, retryAfter: String?)
        case lostBeforeStoring
        case lostAfterStoring
        case refuseWholeIf(eventId: String)
    }

    struct State {
        var stored: [String: EventPayload] = [:]
        var faults: [Fault] = []
        var requests = 0
        var drops: [String: Int] = [:]
        var tokens: [String] = []
        var stickyRefusal: String?
    }

    let state = Mutex(State())

    init(faults: [Fault] = []) { state.withLock { $0.faults = faults } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let batch = try JSONDecoder().decode(EventBatchRequest.self, from: request.body ?? Data())
        return try state.withLock { state in
            state.requests += 1
            state.tokens.append(request.headers["Authorization"] ?? "")
            if let refused = state.stickyRefusal, batch.events.contains(where: { $0.id == refused }) {
                return HTTPResponseData(status: 400, body: Data(#"{"error":{"code":"invalid_request","message":"no"}}"#.utf8))
            }
            let fault = state.faults.isEmpty ? nil : state.faults.removeFirst()
            switch fault {
            case .status(let status, let retryAfter)?:
                return HTTPResponseData(status: status, headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
            case .lostBeforeStoring?:
                throw APIClientError(.network, "connection reset")
            case .refuseWholeIf(let id)?:
                state.stickyRefusal = id
                if batch.events.contains(where: { $0.id == id }) {
                    return HTTPResponseData(status: 400, body: Data(#"{"error":{"code":"invalid_request","message":"no"}}"#.utf8))
                }
            case .lostAfterStoring?, nil: break
            }
            var accepted = 0
            for event in batch.events where state.stored[event.id] == nil {
                state.stored[event.id] = event
                accepted += 1
            }
            if let dropped = batch.dropped, state.drops[dropped.id] == nil { state.drops[dropped.id] = dropped.count }
            if case .lostAfterStoring? = fault { throw APIClientError(.timeout, "the answer never came") }
            let answer = EventBatchResponse(accepted: accepted, duplicates: batch.events.count - accepted, rejected: [])
            return HTTPResponseData(status: 200, body: try JSONEncoder().encode(answer))
        }
    }
}

@Suite("Event relay")
struct EventRelayTests {
    static func relay(
        _ buffer: EventBuffer, _ server: FakeEventServer, clock: ImmediateClock, batchSize: Int = 10,
        token: @escaping @Sendable () async throws -> String? = { "token" }
    ) throws -> EventRelay {
        try EventRelay(
            buffer: buffer, client: APIClient(baseURL: URL(string: "http://127.0.0.1:1")!, transport: server, retry: .none),
            accessToken: token, clock: clock, batchSize: batchSize, jitter: { 1 })
    }

    static func fill(_ buffer: EventBuffer, count: Int, seed: UInt64 = 9) throws -> [EventPayload] {
        var random = SeededRandom(seed: seed)
        let events = (0..<count).map { sampleEvent($0, timestamp: 1_800_000_000_000 + Int64($0), random: &random) }
        for event in events { try buffer.record(event) }
        return events
    }

    @Test("every event reaches the server once; lost answers are sent again and stored nothing twice")
    func deliversThroughFailures() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        let events = try Self.fill(buffer, count: 95)
        let server = FakeEventServer(faults: [
            .lostBeforeStoring, .lostAfterStoring, .status(503, retryAfter: "7"), .status(500, retryAfter: nil),
            .status(429, retryAfter: "2"), .status(404, retryAfter: nil), .lostAfterStoring,
        ])
        let clock = ImmediateClock()
        let report = try await Self.relay(buffer, server, clock: clock).flush()
        #expect(server.state.withLock { Set($0.stored.keys) } == Set(events.map(\.id)))
        #expect(try buffer.count() == 0)
        #expect(report.accepted + report.duplicates >= 95)
        // NB: the first batch's answer was lost twice after it was stored: its last sending counts it as duplicates.
        #expect(report.accepted == 85)
        #expect(report.duplicates == 10)
        #expect(report.retries == 7)
        // Backoff doubles from 1 s (full jitter at 1 here); Retry-After wins when longer.
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(7), .seconds(8), .seconds(16), .seconds(32), .seconds(64)])
    }

    @Test("a batch refused whole is sent again event by event; the event at fault alone is dropped and counted")
    func splitsRefusedBatches() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        let events = try Self.fill(buffer, count: 40)
        let server = FakeEventServer(faults: [.refuseWholeIf(eventId: events[13].id)])
        let report = try await Self.relay(buffer, server, clock: ImmediateClock(), batchSize: 16).flush()
        #expect(report.quarantined == 1)
        #expect(server.state.withLock { Set($0.stored.keys) } == Set(events.map(\.id)).subtracting([events[13].id]))
        #expect(try buffer.count() == 0)
        #expect(try buffer.droppedCount() == 0)  // NB: reported and confirmed in the last batch.
        #expect(server.state.withLock { $0.drops.values.reduce(0, +) } == 1)
    }

    @Test("signed out, nothing is sent and nothing is lost; a 401 asks for a fresh token once")
    func signedOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        _ = try Self.fill(buffer, count: 5)
        let nobody = FakeEventServer()
        let error = await #expect(throws: EventBufferError.self) {
            try await Self.relay(buffer, nobody, clock: ImmediateClock(), token: { nil }).flush()
        }
        #expect(error?.code == .notSignedIn)
        #expect(nobody.state.withLock { $0.requests } == 0)
        #expect(try buffer.count() == 5)

        let expiring = FakeEventServer(faults: [.status(401, retryAfter: nil)])
        let calls = Mutex(0)
        let report = try await Self.relay(
            buffer, expiring, clock: ImmediateClock(),
            token: {
                calls.withLock {
                    $0 += 1; return "token-\($0)"
                }
            }
        ).flush()
        #expect(report.accepted == 5)
        #expect(expiring.state.withLock { $0.tokens } == ["Bearer token-1", "Bearer token-2"])
    }

    @Test("two relays on one buffer take turns; each event is sent once")
    func oneRelayAtATime() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        let events = try Self.fill(buffer, count: 200)
        let server = FakeEventServer()
        let first = try Self.relay(buffer, server, clock: ImmediateClock())
        let second = try Self.relay(try EventBuffer(directory: directory), server, clock: ImmediateClock())
        async let a = first.flush()
        async let b = second.flush()
        let reports = try await [a, b]
        #expect(reports.map(\.accepted).reduce(0, +) == 200)
        #expect(reports.map(\.duplicates).reduce(0, +) == 0)
        #expect(server.state.withLock { $0.stored.count } == events.count)
    }

    @Test("Retry-After is read as seconds or as an HTTP date, capped at an hour; nonsense is ignored")
    func retryAfterValues() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buffer = try EventBuffer(directory: directory)
        _ = try Self.fill(buffer, count: 1)
        let date = "Sun, 06 Nov 2044 08:49:37 GMT"
        let server = FakeEventServer(faults: [
            .status(503, retryAfter: "999999"), .status(503, retryAfter: date), .status(503, retryAfter: "soon"),
            .status(503, retryAfter: "-5"),
        ])
        let clock = ImmediateClock()
        _ = try await Self.relay(buffer, server, clock: clock).flush()
        #expect(clock.sleeps == [.seconds(3600), .seconds(3600), .seconds(4), .seconds(8)])
    }
}
