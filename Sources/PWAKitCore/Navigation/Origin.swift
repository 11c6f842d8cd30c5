/// A web origin: scheme, host and port, the unit that bridge access is decided on.
///
/// Scheme and host are lowercased and a scheme's default port is dropped, so
/// `HTTPS://Example.com:443` and `https://example.com` are the same origin.
/// Internationalised hosts are kept exactly as given (punycode stays punycode).
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lowercased: `https`, `http` or `app`.
    public let scheme: String
    /// The host, lowercased; IPv6 literals keep their brackets (`[::1]`).
    public let host: String
    /// The port when it is not the scheme's default, else nil.
    public let port: Int?

    /// The origin of an absolute URL with an authority, or nil when it has none
    /// (`tel:`, `data:`) or does not parse.
    public init?(url: String) {
        guard let parts = URLParts(url), let host = parts.host else { return nil }
        self.scheme = parts.scheme
        self.host = host
        self.port = parts.port
    }

    /// An origin from its parts, normalised like ``init(url:)``; nil when the host is not valid.
    public init?(scheme: String, host: String, port: Int? = nil) {
        guard let parsed = URLParts("\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/"), let parsedHost = parsed.host,
            parsedHost == host.lowercased(), parsed.scheme == scheme.lowercased()
        else { return nil }
        self.scheme = parsed.scheme
        self.host = parsedHost
        self.port = parsed.port
    }

    /// The port connections actually use: the explicit one, else the scheme's default.
    public var effectivePort: Int? {
        port ?? URLParts.defaultPort(for: scheme)
    }

    /// Whether the host is the local machine (`localhost`, `127.0.0.1`, `[::1]`).
    public var isLoopback: Bool {
        host == "localhost" || host == "127.0.0.1" || host == "[::1]"
    }

    /// Whether content from this origin is protected in transit: https, an app's local
    /// bundle (`app:`), or plain http to the local machine.
    public var isPotentiallyTrustworthy: Bool {
        scheme == "https" || scheme == "app" || (scheme == "http" && isLoopback)
    }

    /// `https://a.example.com:8443`.
    public var description: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }
}
