import Foundation
import PWAKitRouting
import Testing

@Suite("Round trip: parse(print(route)) == route")
struct RoundTripTests {
    static let appRouters: [Router<AppRoute>] = [
        AppRoute.router(configuration: try! LinkConfiguration(scheme: "pwakit", universalLinkHosts: ["apps.example.com"])),
        AppRoute.router(
            configuration: try! LinkConfiguration(
                scheme: "dev.pwakit.app", universalLinkHosts: ["example.com:8443"], pathPrefix: "/open/ü ber")),
    ]

    @Test("1,200 generated platform routes, both URL forms, with and without a path prefix", arguments: [0, 1])
    func platformRoutes(router index: Int) throws {
        let router = Self.appRouters[index]
        var generator = RouteGenerator(seed: 0x5EED_0001 + UInt64(index))
        var kinds = Set<String>()
        for _ in 0..<1200 {
            let route = generator.appRoute()
            kinds.insert(String(describing: route).prefix(while: { $0 != "(" }).description)
            for style in LinkStyle.allCases {
                let text = try router.string(for: route, style: style)
                #expect(try router.route(from: text) == route, "\(text)")
                let url = try router.url(for: route, style: style)
                #expect(url.absoluteString == text)
                #expect(try router.route(from: url) == route, "\(text)")
            }
        }
        #expect(kinds == ["home", "settings", "signIn", "notification", "miniApp"])
    }

    @Test("1,200 generated routes of an app's own route type, both URL forms", arguments: ["", "/links"])
    func appDefinedRoutes(pathPrefix: String) throws {
        let router = try ShopRoute.router(pathPrefix: pathPrefix)
        var generator = RouteGenerator(seed: 0xC0FF_EE00 + UInt64(pathPrefix.utf8.count))
        for _ in 0..<1200 {
            let route = generator.shopRoute()
            for style in LinkStyle.allCases {
                let text = try router.string(for: route, style: style)
                #expect(try router.route(from: text) == route, "\(text)")
                #expect(try router.route(from: router.url(for: route, style: style)) == route, "\(text)")
            }
        }
    }

    @Test("printed links are ASCII with every byte outside the unreserved set escaped")
    func printedTextIsCanonical() throws {
        let router = Self.appRouters[0]
        var generator = RouteGenerator(seed: 42)
        for _ in 0..<300 {
            let text = try router.string(for: generator.appRoute())
            let afterScheme = text.dropFirst("pwakit://".count)
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%/?&=".utf8)
            #expect(afterScheme.utf8.allSatisfy(allowed.contains), "\(text)")
            // Printing what was parsed gives the same text back.
            #expect(try router.string(for: router.route(from: text)) == text)
        }
    }

    @Test("hostile parameter text survives: / ? # % space, non-ASCII, a literal %2F")
    func hostileText() throws {
        let router = Self.appRouters[0]
        let id = "a/b?c#d%e f/%2F/é/日本/🙂/+&="
        let text = try router.string(for: .notification(id: id))
        #expect(
            text == "pwakit://notification/a%2Fb%3Fc%23d%25e%20f%2F%252F%2F%C3%A9%2F%E6%97%A5%E6%9C%AC%2F%F0%9F%99%82%2F%2B%26%3D"
        )
        #expect(try router.route(from: text) == .notification(id: id))
        let query = [
            URLQueryItem(name: "a&b=c", value: "x=y&z#?%"), URLQueryItem(name: "flag", value: nil),
            URLQueryItem(name: "e", value: ""),
        ]
        let miniApp = AppRoute.miniApp(appId: "notes", path: "folder/ü ber/", query: query)
        let link = try router.string(for: miniApp)
        #expect(link == "pwakit://app/notes/folder/%C3%BC%20ber/?a%26b%3Dc=x%3Dy%26z%23%3F%25&flag&e=")
        #expect(try router.route(from: link) == miniApp)
    }
}
