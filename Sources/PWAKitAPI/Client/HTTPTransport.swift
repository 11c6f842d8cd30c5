public import Foundation

/// One HTTP request as a client sends it.
public struct HTTPRequestData: Sendable {
    /// The method, upper case.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields; names are case-insensitive.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// How long the whole exchange may take.
    public var timeout: Duration

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration = .seconds(30)) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP response as a client receives it.
public struct HTTPResponseData: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields with lower-case names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What carries a client's requests: URLSession in production, anything in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, or throws when no response arrived.
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}
