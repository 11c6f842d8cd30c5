import Foundation
import PWAKitAPI
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

/// A transport that answers from a script and records what it was sent.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        case answer(Int, String)
        case fail(APIClientError.Code)
    }
    private let steps: Mutex<[Step]>
    let sent = Mutex<[String]>([])

    init(_ steps: [Step]) { self.steps = Mutex(steps) }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        sent.withLock { $0.append("\(request.method) \(request.url.path)") }
        let step = steps.withLock { $0.isEmpty ? Step.answer(500, "") : $0.removeFirst() }
        switch step {
        case .answer(let status, let body): return HTTPResponseData(status: status, body: Data(body.utf8))
        case .fail(let code): throw APIClientError(code, "scripted failure")
        }
    }
}

@Suite("API client")
struct APIClientTests {
    static let me = #"{"id":"u1","email":"a@example.com","displayName":"A","role":"user"}"#

    func client(_ transport: ScriptedTransport, clock: ImmediateClock = ImmediateClock()) -> APIClient {
        APIClient(baseURL: URL(string: "http://127.0.0.1:1")!, transport: transport, clock: clock, random: { 0.5 })
    }

    @Test("an idempotent call is retried on a lost connection and on 503, with jittered backoff, at most 3 times")
    func retriesIdempotentCalls() async throws {
        let transport = ScriptedTransport([.fail(.network), .answer(503, ""), .answer(200, Self.me)])
        let clock = ImmediateClock()
        let user = try await client(transport, clock: clock).me(accessToken: "t")
        #expect(user.email == "a@example.com")
        #expect(transport.sent.withLock { $0 }.count == 3)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
        let exhausted = ScriptedTransport([.answer(503, ""), .answer(503, ""), .answer(503, ""), .answer(200, Self.me)])
        let error = await #expect(throws: APIClientError.self) { try await client(exhausted).me(accessToken: "t") }
        #expect(error?.status == 503)
        #expect(exhausted.sent.withLock { $0 }.count == 3)
    }

    @Test("a refresh and a login are never retried")
    func neverRetriesOneShotCalls() async throws {
        let refresh = ScriptedTransport([.fail(.network), .answer(200, "{}")])
        await #expect(throws: APIClientError.self) { try await client(refresh).refresh("r") }
        #expect(refresh.sent.withLock { $0 } == ["POST /v1/auth/refresh"])
        let login = ScriptedTransport([.answer(503, ""), .answer(200, "{}")])
        await #expect(throws: APIClientError.self) {
            try await client(login).login(LoginRequest(email: "a@example.com", password: "p"))
        }
        #expect(login.sent.withLock { $0 }.count == 1)
    }

    @Test("the server's error body keeps its code and field; an answer of the wrong shape names the field")
    func errorsKeepTheirShape() async throws {
        let refused = ScriptedTransport([
            .answer(401, #"{"error":{"code":"invalid_credentials","message":"email or password is wrong"}}"#)
        ])
        let error = await #expect(throws: APIClientError.self) {
            try await client(refused).login(LoginRequest(email: "a@example.com", password: "p"))
        }
        #expect(error?.code == .init("invalid_credentials"))
        #expect(error?.status == 401)
        let wrongShape = ScriptedTransport([.answer(200, #"{"id":"u1","email":5}"#)])
        let shape = await #expect(throws: APIClientError.self) { try await client(wrongShape).me(accessToken: "t") }
        #expect(shape?.code == .badResponse)
        #expect(shape?.field == "email")
        let hostile = await #expect(throws: APIClientError.self) {
            try await client(ScriptedTransport([])).app("../me", accessToken: "t")
        }
        #expect(hostile?.code == .init("invalid_argument"))
    }

    @Test("a cancelled call stops retrying: no attempt after the cancellation")
    func cancellationStopsRetries() async throws {
        let transport = ScriptedTransport([.fail(.network), .fail(.network), .fail(.network)])
        let task = Task { try await client(transport).me(accessToken: "t") }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.sent.withLock { $0 }.count <= 1)
    }
}
