public import Foundation

/// A link into a web app's own pages: the whole path and query of one of the app's URLs, to open
/// as the same path on the app's origin. `myapp://items/42?tab=notes` and
/// `https://example.com/<prefix>/items/42?tab=notes` are both `PageLink(path: "items/42",
/// query: [tab=notes])`, which ``url(onOrigin:)`` opens as `<origin>/items/42?tab=notes`.
///
/// It is what a host does with a link when the app has no routes of its own (`pwakit run`).
public struct PageLink: Hashable, Sendable {
    /// The path without its leading `/`, decoded; `""` for the root.
    public var path: String
    /// The query items, in order.
    public var query: [URLQueryItem]

    /// A link to `path` with `query`.
    public init(path: String, query: [URLQueryItem] = []) {
        self.path = path
        self.query = query
    }

    /// Every path and query, parsed and printed by one declaration.
    public static let routes = Routes<PageLink> {
        RouteCase(PageLink.init) {
            RestOfPath()
            RemainingQuery()
        } extract: {
            ($0.path, $0.query)
        }
    }

    /// The page on `origin` (`https://example.com`, `app://hello`): each path segment and query
    /// item percent-encoded (everything outside `A-Z a-z 0-9 - . _ ~`), so no segment can leave
    /// the origin or the path.
    public func url(onOrigin origin: String) -> String {
        var text = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        text +=
            "/"
            + path.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encode(String($0)) }
            .joined(separator: "/")
        if !query.isEmpty {
            text +=
                "?"
                + query.map { item in
                    PercentEncoding.encode(item.name) + (item.value.map { "=" + PercentEncoding.encode($0) } ?? "")
                }.joined(separator: "&")
        }
        return text
    }
}
