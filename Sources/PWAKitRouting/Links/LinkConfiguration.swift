/// Where an app's links live: its own scheme, the hosts of its universal links and the path
/// prefix they sit under, and the limits every link is held to.
///
/// It comes from the app's configuration, never from code: the same ``Routes`` serve any app.
public struct LinkConfiguration: Sendable, Hashable {
    /// The app's own scheme (`myapp` in `myapp://items/42`).
    public let scheme: URLScheme
    /// The universal-link hosts in lowercase, each `name` or `name:port`; links are written on the first.
    public let universalLinkHosts: [String]
    /// The decoded path segments every universal link starts with (`["links"]` for `/links`); empty for none.
    public let pathPrefix: [String]
    /// The limits of every link.
    public let limits: RouteLimits

    /// A configuration, checked: ``RoutingError/Code/invalidConfiguration`` naming `scheme`,
    /// `universalLinkHosts[i]` or `pathPrefix` when one is not valid.
    ///
    /// - Parameters:
    ///   - scheme: The app's own scheme, RFC 3986 syntax, not `http` or `https`.
    ///   - universalLinkHosts: DNS names (ASCII; punycode for others), with an optional `:port`.
    ///   - pathPrefix: `/`-separated decoded segments, such as `/links`; `""` or `/` for none.
    ///   - limits: The limits of every link.
    public init(
        scheme: String, universalLinkHosts: [String] = [], pathPrefix: String = "", limits: RouteLimits = .standard
    ) throws(RoutingError) {
        self.scheme = try URLScheme(scheme)
        var hosts: [String] = []
        for (index, host) in universalLinkHosts.enumerated() {
            let lowered = host.lowercased()
            guard Self.isValidHost(lowered) else {
                throw RoutingError(
                    .invalidConfiguration,
                    "a universal-link host is a DNS name of a-z, 0-9, '-' and '.' with an optional ':port', not '\(Clip.text(host))'",
                    field: "universalLinkHosts[\(index)]")
            }
            if !hosts.contains(lowered) { hosts.append(lowered) }
        }
        self.universalLinkHosts = hosts
        let prefix = pathPrefix.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for segment in prefix
        where segment == "." || segment == ".." || PercentEncoding.containsControlCharacter(segment) {
            throw RoutingError(
                .invalidConfiguration, "the path prefix cannot hold '.' or '..' segments or control characters",
                field: "pathPrefix")
        }
        guard prefix.count < limits.maximumSegments else {
            throw RoutingError(
                .invalidConfiguration, "the path prefix has as many segments as a link may have", field: "pathPrefix")
        }
        self.pathPrefix = prefix
        self.limits = limits
    }

    /// Whether `host` is lowercase `label(.label)*` with an optional `:port` (1–65535).
    static func isValidHost(_ host: String) -> Bool {
        let pieces = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = pieces.first, !name.isEmpty, name.utf8.count <= 253 else { return false }
        if pieces.count == 2 {
            guard let port = Int(pieces[1]), pieces[1].utf8.count <= 5, pieces[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                (1...65535).contains(port)
            else { return false }
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            let bytes = label.utf8
            guard let first = bytes.first, let last = bytes.last, bytes.count <= 63, first != 0x2D, last != 0x2D else {
                return false
            }
            return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        }
    }
}
