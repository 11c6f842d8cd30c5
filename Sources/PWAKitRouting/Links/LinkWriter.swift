import Foundation

/// Writes a ``RoutePath`` as a URL's text in either style, refusing one that ``LinkReader`` would
/// refuse (too long, too many segments or query items), so every written link reads back.
enum LinkWriter {
    static func write(_ path: RoutePath, style: LinkStyle, configuration: LinkConfiguration) throws(RoutingError)
        -> String
    {
        let limits = configuration.limits
        var text: String
        let segments: [String]
        switch style {
        case .customScheme:
            segments = path.segments
            text = configuration.scheme.name + "://" + segments.map(PercentEncoding.encode).joined(separator: "/")
        case .universalLink:
            guard let host = configuration.universalLinkHosts.first else {
                throw RoutingError(
                    .invalidConfiguration, "no universal-link host is configured", field: "universalLinkHosts")
            }
            segments = configuration.pathPrefix + path.segments
            text = "https://" + host + "/" + segments.map(PercentEncoding.encode).joined(separator: "/")
        }
        if !path.query.isEmpty {
            text += "?"
            text += path.query.map { item in
                PercentEncoding.encode(item.name) + (item.value.map { "=" + PercentEncoding.encode($0) } ?? "")
            }.joined(separator: "&")
        }
        guard segments.count <= limits.maximumSegments else {
            throw RoutingError(
                .unprintableRoute, "the link would have \(segments.count) segments; the limit is \(limits.maximumSegments)",
                field: "path")
        }
        guard path.query.count <= limits.maximumQueryItems else {
            throw RoutingError(
                .unprintableRoute,
                "the link would have \(path.query.count) query items; the limit is \(limits.maximumQueryItems)",
                field: "query")
        }
        guard text.utf8.count <= limits.maximumURLLength else {
            throw RoutingError(
                .unprintableRoute, "the link would be \(text.utf8.count) bytes; the limit is \(limits.maximumURLLength)",
                field: "url")
        }
        return text
    }
}
