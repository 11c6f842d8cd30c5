import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport on every platform: an ephemeral `URLSession` with caching off (conditional
/// requests are the client's business) and no cookies.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport over a new ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    /// Sends the request; a failure to get any response throws ``APIClientError`` `network`
    /// (or `timeout`) with the system's error as the cause.
    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        let components = request.timeout.components
        urlRequest.timeoutInterval = Double(components.seconds) + Double(components.attoseconds) / 1e18
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError {
            if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
            throw APIClientError.transport(error, url: request.url)
        } catch {
            throw APIClientError.transport(error, url: request.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIClientError(.badResponse, "the answer from \(request.url.host ?? "the server") is not HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponseData(status: http.statusCode, headers: headers, body: data)
    }
}
