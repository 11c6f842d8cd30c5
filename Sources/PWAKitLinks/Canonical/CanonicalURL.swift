/// A shared URL in the one form two shares of the same page agree on, so a post is stored once:
/// RFC 3986 normalisation (§6.2.2 and §6.2.3) and the removal of tracking parameters.
///
/// - scheme and host in lower case; a host's trailing dot removed; IPv6 in RFC 5952 form;
/// - the scheme's default port dropped; an empty path written `/`;
/// - escapes of unreserved characters decoded, the others in upper case, characters a URL cannot
///   hold (spaces, non-ASCII text) escaped as UTF-8; then `.` and `..` segments removed;
/// - query parameters that only track (``TrackingRules``) removed, the others kept in their order;
///   an empty query dropped;
/// - the fragment dropped, except `#!…` and `#/…` routes of single-page apps.
///
/// Refused (``LinkError``): longer than the limit, not `http`/`https`, a user name or password, a
/// host that is not a DNS name or an IP address, a port outside 1–65535, control characters.
/// Reading a canonical URL gives it back unchanged.
public struct CanonicalURL: Hashable, Sendable, CustomStringConvertible {
    /// The longest URL read, in bytes, by default.
    public static let maximumLength = 2048

    /// `http` or `https`.
    public let scheme: String
    /// The host.
    public let host: URLHost
    /// The port when it is not the scheme's default.
    public let port: Int?
    /// The path, from its first `/`.
    public let path: String
    /// The query without `?`, when there is one left.
    public let query: String?
    /// The fragment without `#`, for `#!` and `#/` routes.
    public let fragment: String?

    /// The URL's text.
    public var description: String {
        var text = "\(scheme)://\(host)"
        if let port { text += ":\(port)" }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The port to connect to: the given one, else 80 or 443.
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// Reads and normalises `text` (surrounding spaces ignored), removing what `rules` call tracking.
    public init(_ text: String, rules: TrackingRules = .standard, maximumLength: Int = Self.maximumLength)
        throws(LinkError)
    {
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.reversed()
            .drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.reversed()
        let source = Substring(String(trimmed))
        guard source.utf8.count <= maximumLength else {
            throw LinkError(.urlTooLong, "a URL is at most \(maximumLength) bytes, this one \(source.utf8.count)")
        }
        guard !source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw LinkError(.invalidURL, "a URL cannot hold control characters")
        }
        guard let separator = source.firstRange(of: "://") else {
            throw LinkError(.invalidURL, "not an absolute URL like https://example.com/page")
        }
        let scheme = source[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            let shown = scheme.prefix(20)
            if scheme.isEmpty || !scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                throw LinkError(.invalidURL, "not an absolute URL like https://example.com/page")
            }
            throw LinkError(.unsupportedScheme, "only http and https links can be shared, not \(shown):", field: "scheme")
        }
        var rest = source[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if authority.contains("@") {
            throw LinkError(.credentialsInURL, "a shared link cannot carry a user name or password", field: "url")
        }
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let digits = authority[authority.index(after: colon)...]
            authority = authority[..<colon]
            if !digits.isEmpty {
                guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits),
                    (1...65535).contains(number)
                else {
                    throw LinkError(.invalidPort, "the port is a number from 1 to 65535", field: "port")
                }
                port = number
            }
        }
        let host: URLHost
        switch URLHost.parse(authority) {
        case .success(let parsed): host = parsed
        case .failure(let error): throw error
        }
        if port == (scheme == "https" ? 443 : 80) { port = nil }

        let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let rawPath = rest[..<pathEnd]
        rest = rest[pathEnd...]
        var query: Substring?
        var fragment: Substring?
        if rest.hasPrefix("?") {
            let queryEnd = rest.firstIndex(of: "#") ?? rest.endIndex
            query = rest[rest.index(after: rest.startIndex)..<queryEnd]
            rest = rest[queryEnd...]
        }
        if rest.hasPrefix("#") { fragment = rest.dropFirst() }

        let providers = rules.providers(for: host.bare)
        var path = Self.removingDotSegments(PercentNormalization.normalize(rawPath, allowed: PercentNormalization.isPathAllowed))
        if path.isEmpty { path = "/" }
        path = rules.strippingSuffix(path, on: providers)

        var kept: [String] = []
        for piece in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let name = piece.prefix { $0 != "=" }
            if rules.removes(PercentNormalization.decode(name), on: providers) { continue }
            kept.append(PercentNormalization.normalize(piece, allowed: PercentNormalization.isQueryAllowed))
        }
        var keptFragment: String?
        if let fragment, fragment.hasPrefix("!") || fragment.hasPrefix("/") {
            keptFragment = PercentNormalization.normalize(fragment, allowed: PercentNormalization.isQueryAllowed)
        }

        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = kept.isEmpty ? nil : kept.joined(separator: "&")
        self.fragment = keptFragment
        guard description.utf8.count <= maximumLength else {
            throw LinkError(.urlTooLong, "a URL is at most \(maximumLength) bytes once its characters are escaped")
        }
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments removed from an absolute path.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}
