/// One request for a file of a local bundle, as a host's `app://` scheme handler sees it.
public struct LocalBundleRequest: Sendable, Hashable {
    /// The HTTP method (`GET` or `HEAD` are served; anything else is refused).
    public var method: String
    /// The request URI, e.g. `app://hello/assets/app.js?v=2`.
    public var uri: String
    /// The request headers that matter here, by lower-cased name (`range`, `if-none-match`).
    public var headers: [String: String]

    /// Creates a request; header names are matched case-insensitively.
    public init(method: String = "GET", uri: String, headers: [String: String] = [:]) {
        self.method = method.uppercased()
        self.uri = uri
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
    }
}
