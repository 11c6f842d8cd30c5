import Foundation
import PWAKitRouting
import Testing

@Suite("Universal links: configured hosts, with and without a path prefix")
struct UniversalLinkTests {
    @Test("without a prefix, the path starts at the root")
    func noPrefix() throws {
        let router = try ShopRoute.router()
        #expect(try router.string(for: .home, style: .universalLink) == "https://shop.example.com/")
        #expect(
            try router.string(for: .item(id: 42, tab: "notes"), style: .universalLink)
                == "https://shop.example.com/items/42?tab=notes")
        #expect(try router.route(from: "https://shop.example.com/items/42?tab=notes") == .item(id: 42, tab: "notes"))
        #expect(try router.route(from: "https://shop.example.com") == .home)
        #expect(try router.route(from: "https://shop.example.com/") == .home)
        #expect(try router.route(from: "https://shop.example.com?ref=mail") == .home)
    }

    @Test("with a prefix, links are written under it and read only under it")
    func withPrefix() throws {
        let router = try ShopRoute.router(pathPrefix: "/links/v1/")
        #expect(router.configuration.pathPrefix == ["links", "v1"])
        #expect(try router.string(for: .home, style: .universalLink) == "https://shop.example.com/links/v1")
        #expect(try router.string(for: .cart, style: .universalLink) == "https://shop.example.com/links/v1/account/cart")
        #expect(try router.route(from: "https://shop.example.com/links/v1/account/cart") == .cart)
        #expect(try router.route(from: "https://shop.example.com/links/v1/") == .home)
        for outside in [
            "https://shop.example.com/account/cart", "https://shop.example.com/links/account/cart",
            "https://shop.example.com/links/v2/account/cart", "https://shop.example.com/LINKS/v1/account/cart",
        ] {
            #expect(throws: RoutingError.self, "\(outside)") { try router.route(from: outside) }
        }
        // The app's own scheme never carries the prefix.
        #expect(try router.string(for: .cart) == "shop://account/cart")
        #expect(try router.route(from: "shop://account/cart") == .cart)
    }

    @Test("a prefix with characters that need escaping is written escaped and read decoded")
    func escapedPrefix() throws {
        let router = Router(
            ShopRoute.routes,
            configuration: try LinkConfiguration(scheme: "shop", universalLinkHosts: ["a.example"], pathPrefix: "ü ber"))
        #expect(try router.string(for: .cart, style: .universalLink) == "https://a.example/%C3%BC%20ber/account/cart")
        #expect(try router.route(from: "https://a.example/%c3%bc%20ber/account/cart") == .cart)
    }

    @Test("every configured host is read; links are written on the first")
    func hosts() throws {
        let router = try ShopRoute.router()
        #expect(try router.route(from: "https://www.shop.example.com/account/cart") == .cart)
        #expect(try router.route(from: "https://WWW.Shop.Example.COM/account/cart") == .cart)
        #expect(try router.string(for: .cart, style: .universalLink).hasPrefix("https://shop.example.com/"))
        #expect(router.route(for: URL(string: "https://example.com/account/cart")!) == nil)
        #expect(router.route(for: URL(string: "https://shop.example.com.evil.com/account/cart")!) == nil)
        #expect(router.route(for: URL(string: "http://shop.example.com/account/cart")!) == nil)
    }

    @Test("a host with a port is its own host")
    func ports() throws {
        let router = Router(
            ShopRoute.routes, configuration: try LinkConfiguration(scheme: "shop", universalLinkHosts: ["localhost:8443"]))
        #expect(try router.string(for: .cart, style: .universalLink) == "https://localhost:8443/account/cart")
        #expect(try router.route(from: "https://localhost:8443/account/cart") == .cart)
        #expect(throws: RoutingError.self) { try router.route(from: "https://localhost/account/cart") }
    }
}
