public import Foundation

/// The answer to a ``LocalBundleRequest``: status, headers and the body bytes.
public struct LocalBundleResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The reason phrase for ``status``.
    public var reason: String
    /// The media type of the body.
    public var contentType: String
    /// Response headers other than the content type, e.g. `ETag`, `Content-Range`.
    public var headers: [String: String]
    /// The body (empty for `HEAD`, 304 and errors without a page).
    public var body: Data

    /// Creates a response.
    public init(status: Int, reason: String, contentType: String, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.reason = reason
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A small HTML error page with `status`, never revealing file system paths.
    static func errorPage(_ status: Int, _ reason: String, _ detail: String, headers: [String: String] = [:])
        -> LocalBundleResponse
    {
        let escaped = detail.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let html =
            "<!doctype html><meta charset=utf-8><title>\(status) \(reason)</title>"
            + "<h1>\(status) \(reason)</h1><p>\(escaped)</p>\n"
        var all = headers
        all["Cache-Control"] = "no-store"
        all["X-Content-Type-Options"] = "nosniff"
        return LocalBundleResponse(
            status: status, reason: reason, contentType: "text/html; charset=utf-8", headers: all,
            body: Data(html.utf8))
    }
}
