#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A URL's host, checked and in its one canonical spelling: a lowercase DNS name without a
/// trailing dot, a dotted-decimal IPv4 address, or an IPv6 address in RFC 5952 form.
public enum URLHost: Hashable, Sendable, CustomStringConvertible {
    /// A DNS name (`example.com`).
    case name(String)
    /// An IPv4 address, its four bytes.
    case ipv4([UInt8])
    /// An IPv6 address, its sixteen bytes.
    case ipv6([UInt8])

    /// The host as a URL writes it (`example.com`, `10.0.0.1`, `[::1]`).
    public var description: String {
        switch self {
        case .name(let name): name
        case .ipv4(let bytes): bytes.map(String.init).joined(separator: ".")
        case .ipv6(let bytes): "[\(Self.ipv6Text(bytes))]"
        }
    }

    /// The host without brackets, as a resolver takes it.
    public var bare: String {
        if case .ipv6(let bytes) = self { return Self.ipv6Text(bytes) }
        return description
    }

    /// Reads a host as a URL writes it (`[…]` for IPv6), under the same rules as ``CanonicalURL``;
    /// the error (field `host`) says why it is not one.
    public init(parsing text: String) throws(LinkError) {
        switch Self.parse(Substring(text)) {
        case .success(let host): self = host
        case .failure(let error): throw error
        }
    }

    /// Reads a URL's host (`[…]` for IPv6); `nil` with the reason when it is not one.
    static func parse(_ text: Substring) -> Result<URLHost, LinkError> {
        func refuse(_ why: String) -> Result<URLHost, LinkError> {
            .failure(LinkError(.invalidHost, why, field: "host"))
        }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]"), text.count > 2 else { return refuse("an IPv6 address is written [address]") }
            let inner = text.dropFirst().dropLast()
            guard !inner.contains("%") else { return refuse("an IPv6 zone (%…) names a local interface, not a site") }
            guard let bytes = ipv6Bytes(String(inner)) else { return refuse("'\(inner.prefix(60))' is not an IPv6 address") }
            return .success(.ipv6(bytes))
        }
        var name = text.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return refuse("a host is 1 to 253 characters") }
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return refuse("the host holds non-ASCII characters: write it in punycode (xn--…)")
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if let last = labels.last, last.allSatisfy(\.isNumber) || last.hasPrefix("0x") {
            // NB: WHATWG reads 0x7f.1, 2130706433 and 0177.0.0.1 as 127.0.0.1; only plain dotted decimal is taken.
            guard labels.count == 4,
                let bytes = Optional(
                    labels.compactMap { label -> UInt8? in
                        guard !label.isEmpty, label.count <= 3, label.allSatisfy(\.isNumber),
                            label == "0" || !label.hasPrefix("0")
                        else { return nil }
                        return UInt8(label)
                    }), bytes.count == 4
            else { return refuse("'\(name.prefix(60))' is a numeric host that is not dotted-decimal IPv4") }
            return .success(.ipv4(bytes))
        }
        for label in labels {
            let bytes = label.utf8
            guard let first = bytes.first, let last = bytes.last, bytes.count <= 63, first != 0x2D, last != 0x2D,
                bytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F })
            else {
                return refuse("'\(name.prefix(60))' is not a DNS name: labels of a-z, 0-9, '-' and '_', 1 to 63 each")
            }
        }
        return .success(.name(name))
    }

    /// The 16 bytes of an IPv6 address in text, or nil.
    static func ipv6Bytes(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// RFC 5952 text of 16 bytes (lowercase, the longest zero run compressed).
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { buffer in
            for (index, byte) in bytes.prefix(16).enumerated() { buffer[index] = byte }
        }
        var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &output, socklen_t(output.count)) != nil else { return "::" }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
