import Dispatch
import Foundation
import Synchronization

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
        let (data, response) = try await exchange(urlRequest, url: request.url)
        guard let http = response as? HTTPURLResponse else {
            throw APIClientError(.badResponse, "the answer from \(request.url.host ?? "the server") is not HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponseData(status: http.statusCode, headers: headers, body: data)
    }

    /// One data task bridged to async. NB: a cancelled caller cancels the task from another queue:
    /// FoundationNetworking's own `data(for:)` cancels synchronously from the cancellation handler,
    /// which can deadlock with the task's completion arriving at the same moment.
    private func exchange(_ urlRequest: URLRequest, url: URL) async throws -> (Data, URLResponse) {
        let holder = TaskHolder()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else if let error = error as? URLError, error.code == .cancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(
                            throwing: APIClientError.transport(error ?? URLError(.badServerResponse), url: url))
                    }
                }
                holder.start(task)
            }
        } onCancel: {
            holder.cancel()
        }
    }
}

/// The data task of one exchange, cancelled at most once and never from the canceller's thread.
private final class TaskHolder: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { DispatchQueue.global().async { task.cancel() } }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let task { DispatchQueue.global().async { task.cancel() } }
    }
}
