/// The pieces of an absolute URL that navigation decisions depend on.
///
/// Deliberately strict: anything ambiguous (a percent sign or space in the host, a port
/// that is not a number, a missing host where one is required) fails to parse, and the
/// caller treats a URL that does not parse as blocked.
struct URLParts: Equatable {
    /// The scheme, lowercased (`https`, `tel`, `app`).
    var scheme: String
    /// The host, lowercased; IPv6 literals keep their brackets; nil without an authority.
    var host: String?
    /// The explicit port, nil when absent or equal to the scheme's default.
    var port: Int?
    /// The path with dot segments removed; `/` when the URL has an authority but no path.
    var path: String

    /// Schemes whose URLs WebKit treats as "special": backslash acts as a slash.
    private static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        self.scheme = scheme.lowercased()
        let isSpecial = Self.specialSchemes.contains(self.scheme)
        var rest = Substring(text[text.index(after: colon)...])
        if isSpecial { rest = Substring(rest.replacingBackslashes()) }
        guard rest.hasPrefix("//") else {
            // An opaque URL such as `tel:+123` or `mailto:a@b`: no authority, no host.
            host = nil
            port = nil
            path = String(rest.prefix { $0 != "?" && $0 != "#" })
            return
        }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        guard let (host, port) = Self.splitHostAndPort(authority) else { return nil }
        self.host = host
        let defaultPort = Self.defaultPort(for: self.scheme)
        self.port = port.flatMap { $0 == defaultPort ? nil : $0 }
        let afterAuthority = rest[authorityEnd...]
        let rawPath = afterAuthority.prefix { $0 != "?" && $0 != "#" }
        path = Self.removingDotSegments(rawPath.isEmpty ? "/" : String(rawPath))
    }

    /// The port a scheme uses when a URL names none.
    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        case "ftp": 21
        default: nil
        }
    }

    /// Splits `host[:port]` or `[v6]:port`; nil when the host is empty or malformed.
    static func splitHostAndPort(_ authority: Substring) -> (host: String, port: Int?)? {
        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
            let inner = hostPart.dropFirst().dropLast()
            guard !inner.isEmpty, inner.unicodeScalars.allSatisfy({ $0.isASCIIHexDigit || $0 == ":" || $0 == "." })
            else { return nil }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            } else {
                hostPart = authority
            }
            guard !hostPart.isEmpty, hostPart.unicodeScalars.allSatisfy(isHostScalar) else { return nil }
        }
        var port: Int?
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.unicodeScalars.allSatisfy(\.isASCIIDigit),
                let value = Int(portPart), value <= 65535
            else { return nil }
            port = value
        }
        return (hostPart.lowercased(), port)
    }

    /// Whether a scalar may appear in a registered host name as we accept it: ASCII letters,
    /// digits, hyphen, dot, underscore, and any non-ASCII scalar (an IDN kept as written).
    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "-" || scalar == "." || scalar == "_"
            || (scalar.value > 0x7F && !scalar.properties.isWhitespace)
    }

    /// Resolves `.` and `..` segments (also percent-encoded) the way a browser does before
    /// a request is made, so a path prefix cannot be escaped with `/docs/../admin`.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            switch segment.lowercased() {
            case ".", "%2e":
                if isLast { output.append("") }
            case "..", ".%2e", "%2e.", "%2e%2e":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}

extension Substring {
    fileprivate func replacingBackslashes() -> String {
        String(map { $0 == "\\" ? "/" : $0 })
    }
}
