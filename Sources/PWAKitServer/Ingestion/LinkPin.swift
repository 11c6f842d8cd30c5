public import NIOSSL
public import PWAKitLinks

/// A host name pinned to one address and port for the link fetcher, like curl's `--resolve`: the
/// name resolves to that address only, and that address may be reached on that port even when it
/// is not public. For a test site or a staging host on a private network; nothing else opens.
public struct LinkPin: Sendable, Hashable, CustomStringConvertible {
    /// The name, in lower case.
    public let host: String
    /// The only port the pin opens.
    public let port: Int
    /// The address: 4 bytes (IPv4) or 16 (IPv6).
    public let address: [UInt8]

    /// Reads `name:port:address` (`pages.test:8081:127.0.0.1`, `pages.test:443:[::1]` or `::1`);
    /// the error names the part at fault.
    public init(_ text: String) throws(LinkError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw LinkError(.invalidHost, "\(text): expected name:port:address, e.g. pages.test:8081:127.0.0.1")
        }
        guard case .name(let name) = try URLHost(parsing: parts[0]) else {
            throw LinkError(.invalidHost, "\(text): the name \(parts[0]) is an address, not a host name")
        }
        guard let port = Int(parts[1]), (1...65535).contains(port) else {
            throw LinkError(.invalidPort, "\(text): the port \(parts[1]) is not between 1 and 65535")
        }
        var literal = parts[2]
        if !literal.hasPrefix("["), literal.contains(":") { literal = "[\(literal)]" }
        switch try URLHost(parsing: literal) {
        case .ipv4(let bytes), .ipv6(let bytes): address = bytes
        case .name: throw LinkError(.invalidHost, "\(text): the address \(parts[2]) is not an IPv4 or IPv6 address")
        }
        self.host = name
        self.port = port
    }

    /// `name:port:address`.
    public var description: String {
        let text = address.count == 4 ? address.map(String.init).joined(separator: ".") : URLHost.ipv6(address).description
        return "\(host):\(port):\(text)"
    }
}

extension SafeFetcher {
    /// A fetcher for which each of `pins` resolves its name to its address and may reach that
    /// address on that port only. A pin opens nothing else: the same address written as a literal,
    /// or reached through another name, is checked as usual.
    public static func pinning(
        _ pins: [LinkPin], resolver: any HostResolver = SystemResolver(), limits: Limits = Limits(),
        tls: TLSConfiguration = .makeClientConfiguration()
    ) -> SafeFetcher {
        var fetcher = SafeFetcher(resolver: resolver, limits: limits, tls: tls)
        fetcher.pins = Dictionary(pins.map { ($0.host, $0) }, uniquingKeysWith: { _, last in last })
        return fetcher
    }
}
