public import Foundation

/// An app's routes bound to its link configuration: parses the app's URLs into routes and prints
/// routes as URLs, in its own scheme or as universal links.
///
/// ```swift
/// let router = Router(ShopRoute.routes, configuration: try LinkConfiguration(
///     scheme: "shop", universalLinkHosts: ["shop.example.com"], pathPrefix: "/links"))
/// try router.route(from: "shop://items/42?tab=notes")              // .item(id: 42, tab: "notes")
/// try router.string(for: .item(id: 42, tab: nil), style: .universalLink)
/// // "https://shop.example.com/links/items/42"
/// ```
public struct Router<Route>: Sendable {
    /// The route type's URL forms.
    public let routes: Routes<Route>
    /// The scheme, hosts, prefix and limits.
    public let configuration: LinkConfiguration

    /// A router of `routes` under `configuration`.
    public init(_ routes: Routes<Route>, configuration: LinkConfiguration) {
        self.routes = routes
        self.configuration = configuration
    }

    /// The route `url` spells, or the ``RoutingError`` naming what did not match.
    ///
    /// Foundation may have re-encoded the text already (it writes a stray `%` as `%25`); use
    /// ``route(from:)-(String)`` to read exactly what arrived.
    public func route(from url: URL) throws(RoutingError) -> Route {
        try route(from: url.absoluteString)
    }

    /// The route the URL `text` spells, or the ``RoutingError`` naming what did not match.
    public func route(from text: String) throws(RoutingError) -> Route {
        try routes.route(for: LinkReader.read(text, configuration: configuration))
    }

    /// The route `url` spells, or `nil` when it is not one of the app's links.
    public func route(for url: URL) -> Route? {
        try? route(from: url)
    }

    /// The URL text of `route`, or ``RoutingError/Code/unprintableRoute`` naming the value that has no URL form.
    public func string(for route: Route, style: LinkStyle = .customScheme) throws(RoutingError) -> String {
        try LinkWriter.write(routes.path(for: route), style: style, configuration: configuration)
    }

    /// The URL of `route`, or ``RoutingError/Code/unprintableRoute`` naming the value that has no URL form.
    public func url(for route: Route, style: LinkStyle = .customScheme) throws(RoutingError) -> URL {
        let text = try string(for: route, style: style)
        // NB: written text is ASCII with every reserved byte escaped, so Foundation takes it as it is.
        guard let url = URL(string: text) else {
            throw RoutingError(.unprintableRoute, "Foundation does not accept '\(Clip.text(text))' as a URL", field: "url")
        }
        return url
    }
}
