public import Foundation
import PWAKitBundles
import PWAKitErrors
public import PWAKitRetry

/// The platform server's HTTP API as typed calls: one contract with the server (the wire types of
/// this module), errors as ``APIClientError``, idempotent calls retried with backoff.
public struct APIClient: Sendable {
    /// The server's base URL (`http://127.0.0.1:8080`).
    public let baseURL: URL
    /// What carries the requests.
    public let transport: any HTTPTransport
    /// How idempotent calls are retried (``RetryPolicy/http``: three attempts in all).
    public var retry: RetryPolicy
    /// The time one request may take.
    public var timeout: Duration
    /// What the waits between attempts sleep on (injected so tests never sleep).
    public var clock: any Clock<Duration>
    /// A uniform random number in [0, 1) for jitter.
    public var random: @Sendable () -> Double

    /// Creates a client.
    public init(
        baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), retry: RetryPolicy = .http,
        timeout: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.retry = retry
        self.timeout = timeout
        self.clock = clock
        self.random = random
    }

    /// How a request authenticates.
    public enum Credential: Sendable {
        /// No credential.
        case none
        /// `Authorization: Bearer <token>`.
        case bearer(String)
        /// `Authorization: Basic …` with a mini-app backend's credential.
        case basic(id: String, secret: String)

        var header: String? {
            switch self {
            case .none: nil
            case .bearer(let token): "Bearer \(token)"
            case .basic(let id, let secret): "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
            }
        }
    }

    /// Sends one request, retrying transient failures when `idempotent`; any status is returned.
    public func exchange(
        _ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json",
        credential: Credential = .none, headers: [String: String] = [:], idempotent: Bool? = nil
    ) async throws -> HTTPResponseData {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else {
            throw APIClientError(.badResponse, "\(path) is not a path on \(baseURL)")
        }
        var fields = headers
        if body != nil { fields["Content-Type"] = contentType }
        if let header = credential.header { fields["Authorization"] = header }
        fields["Accept"] = fields["Accept"] ?? "application/json"
        let request = HTTPRequestData(method: method, url: url, headers: fields, body: body, timeout: timeout)
        let mayRetry = idempotent ?? ["GET", "HEAD", "PUT", "DELETE"].contains(method)
        let policy = mayRetry ? retry : .none
        // NB: bound to a local first; opening the stored existential directly fails to type-check
        // when Foundation is imported (Swift 6.3).
        let clock = clock
        let transport = transport
        return try await policy.run(clock: clock, jitter: random, shouldRetry: Self.isTransient) { _ in
            try await transport.send(request)
        }
    }

    /// Whether an outcome is worth another attempt: a gateway answer (502, 503, 504) or a
    /// transient ``APIClientError`` (a lost connection, a timeout).
    static func isTransient(_ outcome: Result<HTTPResponseData, any Error>) -> Bool {
        switch outcome {
        case .success(let response): [502, 503, 504].contains(response.status)
        case .failure(let error): (error as? APIClientError)?.isTransient == true
        }
    }

    /// Sends a request and decodes a 2xx answer as `Response`; any other answer throws the server's error.
    public func call<Response: Decodable>(
        _ method: String, _ path: String, body: Data? = nil, credential: Credential = .none, idempotent: Bool? = nil,
        as type: Response.Type = Response.self
    ) async throws -> Response {
        let response = try await exchange(method, path, body: body, credential: credential, idempotent: idempotent)
        try Self.requireSuccess(response)
        return try Self.decode(Response.self, from: response.body)
    }

    /// Sends a request whose 2xx answer has no body to read.
    public func callExpectingNoContent(
        _ method: String, _ path: String, body: Data? = nil, credential: Credential = .none, idempotent: Bool? = nil
    ) async throws {
        let response = try await exchange(method, path, body: body, credential: credential, idempotent: idempotent)
        try Self.requireSuccess(response)
    }

    /// Throws the server's error unless `response` is a 2xx.
    public static func requireSuccess(_ response: HTTPResponseData) throws {
        guard (200..<300).contains(response.status) else { throw error(from: response) }
    }

    /// The server's error of a non-2xx answer: its body's code, message and field when it has the
    /// project's error body, else `http_status` with the status.
    public static func error(from response: HTTPResponseData) -> APIClientError {
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: response.body) {
            return APIClientError(
                .init(body.error.code), body.error.message, field: body.error.field, status: response.status)
        }
        return APIClientError(
            .httpStatus, "the server answered HTTP \(response.status) without an error body", status: response.status)
    }

    /// Decodes a JSON answer; a body that does not fit is `bad_response` naming the field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIClientError(
                .badResponse,
                "the server's answer does not have the expected shape: \(error.fieldPath.isEmpty ? "the body" : error.fieldPath) \(error.fieldProblem)",
                field: error.fieldPath.isEmpty ? nil : error.fieldPath, underlying: error)
        }
    }

    /// Encodes a request body.
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

extension RetryPolicy {
    /// The HTTP client's policy: three attempts in all, 200 ms then 400 ms at most, jittered,
    /// the ceiling capped at 5 s.
    public static let http = RetryPolicy(maximumDelay: .seconds(5), maximumAttempts: 3)
}
