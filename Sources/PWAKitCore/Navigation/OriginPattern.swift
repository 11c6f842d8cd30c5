import Foundation

/// One entry of `origins.allowed`, `auth`, `external` or a key of `grants`:
/// `example.com`, `*.example.com` (which also matches `example.com`), `localhost:8080`,
/// `[::1]:3000` or `example.com/docs/*`.
///
/// A pattern without a port matches every port. A path narrows navigation only: bridge
/// access is decided on origins, so ``matches(_:)`` (for an ``Origin``) ignores paths.
public struct OriginPattern: Hashable, Sendable, CustomStringConvertible {
    /// The host, lowercased, without the `*.` prefix.
    public let host: String
    /// Whether the pattern began with `*.`: it then matches the host and every subdomain.
    public let includesSubdomains: Bool
    /// The port the pattern requires, or nil for any port.
    public let port: Int?
    /// The path the pattern requires, without a trailing `*`; nil for any path.
    public let path: String?
    /// Whether ``path`` is a prefix (the pattern ended in `*`) rather than an exact path.
    public let pathIsPrefix: Bool

    /// Parses a pattern, throwing a precise error for the first problem found.
    public init(parsing text: String) throws(OriginPatternError) {
        func fail(_ code: OriginPatternError.Code, _ message: String) -> OriginPatternError {
            OriginPatternError(code: code, pattern: text, message: message)
        }
        guard !text.isEmpty else { throw fail(.empty, "empty pattern") }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            throw fail(.whitespace, "contains whitespace")
        }
        if let range = text.range(of: "://") {
            throw fail(.scheme, "patterns name a host, not a URL: remove \"\(text[..<range.upperBound])\"")
        }
        if let scalar = text.unicodeScalars.first(where: { !$0.isASCII }) {
            throw fail(.nonASCII, "non-ASCII character '\(scalar)': write the host in punycode (xn--…)")
        }
        let slash = text.firstIndex(of: "/") ?? text.endIndex
        let authority = text[..<slash]
        let pathText = text[slash...]

        if pathText.isEmpty {
            path = nil
            pathIsPrefix = false
        } else {
            if pathText.contains("?") || pathText.contains("#") {
                throw fail(.invalidPath, "a path pattern cannot contain '?' or '#'")
            }
            if let star = pathText.firstIndex(of: "*"), star != pathText.index(before: pathText.endIndex) {
                throw fail(.invalidPath, "'*' is only allowed at the end of a path")
            }
            pathIsPrefix = pathText.hasSuffix("*")
            path = String(pathIsPrefix ? pathText.dropLast() : pathText[...])
        }

        var hostText = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail(.invalidCharacter, "unclosed '['") }
            hostText = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail(.invalidCharacter, "unexpected text after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }

        if let portText {
            guard !portText.isEmpty else { throw fail(.invalidPort, "empty port") }
            guard portText.count <= 5, portText.unicodeScalars.allSatisfy(\.isASCIIDigit), let value = Int(portText),
                (1...65535).contains(value)
            else { throw fail(.invalidPort, "port \"\(portText)\" is not a number from 1 to 65535") }
            port = value
        } else {
            port = nil
        }

        if hostText.hasPrefix("[") {
            let inner = hostText.dropFirst().dropLast()
            guard !inner.isEmpty, inner.unicodeScalars.allSatisfy({ $0.isASCIIHexDigit || $0 == ":" || $0 == "." })
            else { throw fail(.invalidCharacter, "invalid IPv6 address \"\(hostText)\"") }
            host = hostText.lowercased()
            includesSubdomains = false
            return
        }
        guard !hostText.isEmpty else { throw fail(.emptyLabel, "empty host") }
        if hostText == "*" {
            throw fail(.wildcard, "a lone '*' would match every site: write '*.example.com'")
        }
        includesSubdomains = hostText.hasPrefix("*.") || hostText == "*."
        let base = includesSubdomains ? hostText.dropFirst(2) : hostText
        if base.contains("*") {
            throw fail(.wildcard, "'*' is only allowed as the whole leftmost label, as in '*.example.com'")
        }
        let labels = base.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { throw fail(.emptyLabel, "empty label") }
            if let bad = label.unicodeScalars.first(where: { !($0.isASCIILetter || $0.isASCIIDigit || $0 == "-") }) {
                throw fail(.invalidCharacter, "invalid character '\(bad)'")
            }
            guard label.count <= 63 else { throw fail(.invalidLabel, "label longer than 63 characters") }
            if label.hasPrefix("-") || label.hasSuffix("-") {
                throw fail(.invalidLabel, "label \"\(label)\" starts or ends with a hyphen")
            }
        }
        guard base.count <= 253 else { throw fail(.tooLong, "host longer than 253 characters") }
        let isIPv4 = labels.count == 4 && labels.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCIIDigit) }
        if includesSubdomains && isIPv4 {
            throw fail(.wildcard, "'*.' cannot precede an IP address")
        }
        host = base.lowercased()
    }

    /// Whether the pattern names a path (and so only steers navigation below that path).
    public var hasPath: Bool { path != nil }

    /// Whether an origin's host and port are matched; the pattern's path is ignored.
    public func matches(_ origin: Origin) -> Bool {
        matchesHost(origin.host, effectivePort: origin.effectivePort)
    }

    /// Whether a host (lowercased) and the port a connection to it uses are matched.
    func matchesHost(_ candidate: String, effectivePort: Int?) -> Bool {
        if let port, port != effectivePort { return false }
        return matchesHostName(candidate)
    }

    /// Whether a host (lowercased) is matched, whatever the port.
    func matchesHostName(_ candidate: String) -> Bool {
        candidate == host || (includesSubdomains && candidate.hasSuffix(".\(host)"))
    }

    /// Whether a parsed URL is matched: host, port and, when the pattern has one, path.
    func matches(_ parts: URLParts) -> Bool {
        guard let candidate = parts.host,
            matchesHost(candidate, effectivePort: parts.port ?? URLParts.defaultPort(for: parts.scheme))
        else { return false }
        guard let path else { return true }
        if pathIsPrefix {
            return parts.path.hasPrefix(path) || (path.hasSuffix("/") && parts.path == String(path.dropLast()))
        }
        return parts.path == path
    }

    /// Whether every origin this pattern matches is also matched by `other`'s host and port.
    public func isCovered(by other: OriginPattern) -> Bool {
        if let otherPort = other.port, otherPort != port { return false }
        if other.includesSubdomains {
            return host == other.host || host.hasSuffix(".\(other.host)")
        }
        return !includesSubdomains && host == other.host
    }

    /// The pattern in canonical form: `*.example.com:8443/docs/*`.
    public var description: String {
        var text = includesSubdomains ? "*.\(host)" : host
        if let port { text += ":\(port)" }
        if let path { text += path + (pathIsPrefix ? "*" : "") }
        return text
    }
}
