import Foundation

/// Reads a URL's text into a ``RoutePath``: checks the limits, the scheme, the universal-link
/// host and prefix, and decodes every segment and query item, in one pass over the bytes and
/// before any route is tried.
///
/// Forms read (the fragment is ignored):
/// - `myapp://a/b?q`, and `myapp:a/b` or `myapp:/a/b` (the path starts after `myapp://`, so the
///   first segment sits where a host would);
/// - `https://host[:port]/prefix/a/b?q` for a configured host (`:443` is the same host).
///
/// NB: the text is split on bytes, never on `Character`s: a `/` followed by a combining mark is
/// still a separator.
enum LinkReader {
    typealias Bytes = ArraySlice<UInt8>

    static func read(_ text: String, configuration: LinkConfiguration) throws(RoutingError) -> RoutePath {
        let limits = configuration.limits
        let length = text.utf8.count
        guard length <= limits.maximumURLLength else {
            throw RoutingError(
                .urlTooLong, "the URL is \(length) bytes; the limit is \(limits.maximumURLLength)", field: "url")
        }
        let bytes = Array(text.utf8)[...]
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw RoutingError(.malformedURL, "a space or control character at byte \(bad)", field: "url")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), URLScheme.isValidSyntax(string(bytes[..<colon])) else {
            throw RoutingError(.malformedURL, "'\(Clip.text(text))' does not start with a scheme", field: "scheme")
        }
        let scheme = string(bytes[..<colon]).lowercased()
        var rest = bytes[(colon + 1)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        var queryBytes: Bytes = []
        if let mark = rest.firstIndex(of: UInt8(ascii: "?")) {
            queryBytes = rest[(mark + 1)...]
            rest = rest[..<mark]
        }
        let slash = UInt8(ascii: "/")
        let pathBytes: Bytes
        var prefix: [String] = []
        if scheme == configuration.scheme.name {
            pathBytes = rest.starts(with: [slash, slash]) ? rest.dropFirst(2) : rest.first == slash ? rest.dropFirst() : rest
        } else if scheme == "https", !configuration.universalLinkHosts.isEmpty {
            guard rest.starts(with: [slash, slash]) else {
                throw RoutingError(.malformedURL, "an https URL needs a host", field: "host")
            }
            let authorityAndPath = rest.dropFirst(2)
            let end = authorityAndPath.firstIndex(of: slash) ?? authorityAndPath.endIndex
            var authority = string(authorityAndPath[..<end]).lowercased()
            if authority.hasSuffix(":443") { authority.removeLast(4) }
            guard configuration.universalLinkHosts.contains(authority) else {
                throw RoutingError(
                    .foreignHost, "'\(Clip.text(authority))' is not one of the app's universal-link hosts", field: "host")
            }
            pathBytes = authorityAndPath[end...].dropFirst()
            prefix = configuration.pathPrefix
        } else {
            throw RoutingError(.foreignScheme, "'\(Clip.text(scheme))' is not the app's scheme", field: "scheme")
        }
        var segments = try readSegments(pathBytes, prefixCount: prefix.count, limits: limits)
        guard segments.starts(with: prefix) else {
            throw RoutingError(
                .outsidePathPrefix,
                "universal links start with '/\(prefix.map(PercentEncoding.encode).joined(separator: "/"))'", field: "path")
        }
        segments.removeFirst(prefix.count)
        return RoutePath(segments: segments, query: try readQuery(queryBytes, limits: limits))
    }

    private static func readSegments(_ bytes: Bytes, prefixCount: Int, limits: RouteLimits) throws(RoutingError)
        -> [String]
    {
        guard !bytes.isEmpty else { return [] }
        let count = bytes.count(where: { $0 == UInt8(ascii: "/") }) + 1
        guard count <= limits.maximumSegments else {
            throw RoutingError(
                .tooManySegments, "the path has \(count) segments; the limit is \(limits.maximumSegments)", field: "path")
        }
        var segments: [String] = []
        segments.reserveCapacity(count)
        for (index, raw) in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).enumerated() {
            let field = index >= prefixCount ? "path[\(index - prefixCount)]" : "path"
            segments.append(try decode(raw, field: field, allowingLineBreaks: false))
        }
        return segments
    }

    private static func readQuery(_ bytes: Bytes, limits: RouteLimits) throws(RoutingError) -> [URLQueryItem] {
        let pieces = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pieces.count <= limits.maximumQueryItems else {
            throw RoutingError(
                .tooManyQueryItems, "the query has \(pieces.count) items; the limit is \(limits.maximumQueryItems)",
                field: "query")
        }
        var items: [URLQueryItem] = []
        items.reserveCapacity(pieces.count)
        for piece in pieces {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else {
                items.append(URLQueryItem(name: try decode(piece, field: "query", allowingLineBreaks: false), value: nil))
                continue
            }
            let name = try decode(piece[..<equals], field: "query", allowingLineBreaks: false)
            let value = try decode(piece[(equals + 1)...], field: "query.\(name)", allowingLineBreaks: true)
            items.append(URLQueryItem(name: name, value: value))
        }
        return items
    }

    private static func decode(_ raw: Bytes, field: String, allowingLineBreaks: Bool) throws(RoutingError) -> String {
        let text: String
        do {
            text = try PercentEncoding.decode(raw)
        } catch {
            switch error {
            case .badEscape:
                throw RoutingError(
                    .invalidPercentEncoding, "'\(Clip.text(string(raw)))' has a '%' not followed by two hex digits",
                    field: field)
            case .notUTF8:
                throw RoutingError(.invalidPercentEncoding, "'\(Clip.text(string(raw)))' does not decode to UTF-8", field: field)
            }
        }
        guard !PercentEncoding.containsControlCharacter(text, allowingLineBreaks: allowingLineBreaks) else {
            throw RoutingError(
                .invalidPercentEncoding, "'\(Clip.text(string(raw)))' decodes to a control character", field: field)
        }
        return text
    }

    /// The text of bytes that came from a `String` split at ASCII bytes (so they are UTF-8).
    private static func string(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
