import Foundation
import PWAKitRouting
import Testing

@Suite("PageLink: a web app's own pages")
struct PageLinkTests {
    let router: Router<PageLink>

    init() throws {
        router = Router(
            PageLink.routes,
            configuration: try LinkConfiguration(scheme: "shop", universalLinkHosts: ["shop.example.com"], pathPrefix: "/open"))
    }

    @Test("both link forms read as the same path and query, printed on the app's origin with every segment encoded")
    func readAndOpen() throws {
        let custom = try router.route(from: "shop://items/42?tab=notes&x")
        let universal = try router.route(from: "https://shop.example.com/open/items/42?tab=notes&x")
        #expect(custom == universal)
        #expect(
            custom
                == PageLink(
                    path: "items/42", query: [URLQueryItem(name: "tab", value: "notes"), URLQueryItem(name: "x", value: nil)]))
        #expect(custom.url(onOrigin: "https://shop.example.com") == "https://shop.example.com/items/42?tab=notes&x")
        #expect(try router.route(from: "shop://").url(onOrigin: "app://shop/") == "app://shop/")
        let odd = PageLink(path: "a b/ü?#", query: [URLQueryItem(name: "q&", value: "1=2")])
        #expect(odd.url(onOrigin: "app://shop") == "app://shop/a%20b/%C3%BC%3F%23?q%26=1%3D2")
        #expect(try router.route(from: router.string(for: odd)) == odd)
    }

    @Test("links that would leave the path or the app are refused")
    func refused() {
        for (link, code) in [
            ("shop://a/../b", RoutingError.Code.invalidParameter), ("shop://a/%2e%2e/b", .invalidParameter),
            ("https://evil.example/open/a", .foreignHost), ("https://shop.example.com/a", .outsidePathPrefix),
            ("other://a", .foreignScheme), ("shop://a%00", .invalidPercentEncoding),
        ] {
            #expect(throws: RoutingError.self, "\(link)") { try router.route(from: link) }
            #expect((try? router.route(from: link)) == nil)
            do {
                _ = try router.route(from: link)
            } catch {
                #expect(error.code == code, "\(link): \(error)")
            }
        }
    }
}
