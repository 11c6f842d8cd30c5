import Foundation
import PWAKitCore
import PWAKitRouting

/// How the commands read a link into an app: the link configuration comes from the app's
/// `identifiers` (scheme, `applinks:` hosts, path prefix), never from code.
enum AppLinks {
    /// The link configuration `identifiers` declare.
    static func configuration(_ identifiers: AppIdentifiers) throws(RoutingError) -> LinkConfiguration {
        try LinkConfiguration(
            scheme: identifiers.urlScheme, universalLinkHosts: identifiers.universalLinkHosts,
            pathPrefix: identifiers.linkPathPrefix)
    }

    /// Without a configuration: the link's own scheme is taken as the app's (the desktop hands
    /// the launcher only links of the scheme it was registered for); universal links need one.
    static func configuration(forLink link: String) throws(RoutingError) -> LinkConfiguration {
        let scheme = link.prefix { $0 != ":" }
        guard scheme.count < link.count else {
            throw RoutingError(.malformedURL, "a link starts with a scheme, like myapp://app/notes", field: "url")
        }
        if ["http", "https"].contains(scheme.lowercased()) {
            throw RoutingError(
                .foreignScheme, "a universal link is read only with --config, which names the app's hosts", field: "scheme")
        }
        return try LinkConfiguration(scheme: String(scheme))
    }

    /// The page `link` opens in a web app that starts at `startURL`: the link's path and query on
    /// the start page's origin.
    static func pageURL(for link: String, startURL: String, identifiers: AppIdentifiers) throws(RoutingError) -> String {
        let page = try Router(PageLink.routes, configuration: configuration(identifiers)).route(from: link)
        guard let components = URLComponents(string: startURL), let scheme = components.scheme, let host = components.host
        else {
            throw RoutingError(.invalidConfiguration, "the start URL \(startURL) has no origin to open the link on", field: "url")
        }
        return page.url(onOrigin: "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")")
    }
}
