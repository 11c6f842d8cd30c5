extension CanonicalURL {
    /// `reference` (absolute, `//host/…`, `/path`, `path`, `?query` or `#fragment`) resolved
    /// against this URL, as a canonical URL; ``LinkError`` when the result is not an `http(s)` URL
    /// this type reads (`data:`, `javascript:`, credentials, a bad host).
    public func resolving(_ reference: String, rules: TrackingRules = .standard) throws(LinkError) -> CanonicalURL {
        let trimmed = reference.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard !trimmed.isEmpty, trimmed.utf8.count <= CanonicalURL.maximumLength else {
            throw LinkError(.invalidURL, "an empty or over-long reference")
        }
        let origin = "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
        let absolute: String
        if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("/"), !trimmed[..<colon].contains("?"),
            !trimmed[..<colon].contains("#")
        {
            absolute = String(trimmed)
        } else if trimmed.hasPrefix("//") {
            absolute = scheme + ":" + trimmed
        } else if trimmed.hasPrefix("/") {
            absolute = origin + trimmed
        } else if trimmed.hasPrefix("?") {
            absolute = origin + path + trimmed
        } else if trimmed.hasPrefix("#") {
            absolute = origin + path + (query.map { "?" + $0 } ?? "") + trimmed
        } else {
            let folder = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
            absolute = origin + folder + trimmed
        }
        return try CanonicalURL(absolute, rules: rules)
    }
}
