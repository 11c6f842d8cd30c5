import Foundation
import PWAKitRouting
import Testing

@Suite("Normalisation: print(parse(url)) is the canonical form")
struct NormalisationTests {
    static let router = AppRoute.router(
        configuration: try! LinkConfiguration(scheme: "MyApp", universalLinkHosts: ["Example.com"], pathPrefix: "/p"))

    @Test(
        "links read and written back",
        arguments: [
            // Scheme case, the forms without `//`, a trailing slash, a fragment.
            ("MYAPP://settings", "myapp://settings"),
            ("myapp:settings", "myapp://settings"),
            ("myapp:/settings", "myapp://settings"),
            ("myapp://settings/", "myapp://settings"),
            ("myapp://settings#top", "myapp://settings"),
            ("myapp://", "myapp://"),
            ("myapp:", "myapp://"),
            ("myapp://?", "myapp://"),
            // A route that reads no query drops what it does not read.
            ("myapp://settings?utm_source=mail&x", "myapp://settings"),
            // Escapes in lowercase, escapes of unreserved characters, raw non-ASCII.
            ("myapp://notification/%c3%a9", "myapp://notification/%C3%A9"),
            ("myapp://notification/%41%7E", "myapp://notification/A~"),
            ("myapp://notification/é", "myapp://notification/%C3%A9"),
            // `+` is a plus sign, never a space.
            ("myapp://notification/a+b", "myapp://notification/a%2Bb"),
            // A mini-app's path: an escaped `/` becomes a separator; empty segments and the query stay.
            ("myapp://app/notes/a%2Fb", "myapp://app/notes/a/b"),
            ("myapp://app/notes/a//b/", "myapp://app/notes/a//b/"),
            ("myapp://app/notes/", "myapp://app/notes"),
            ("myapp://app/notes?b=2&&a&c=", "myapp://app/notes?b=2&a&c="),
            ("myapp://app/notes?q=a+b%20c", "myapp://app/notes?q=a%2Bb%20c"),
            // Universal links: host case, the default port, the prefix with and without a slash.
            ("https://EXAMPLE.com/p/settings", "https://example.com/p/settings"),
            ("HTTPS://example.com:443/p/settings/", "https://example.com/p/settings"),
            ("https://example.com/p", "https://example.com/p"),
            ("https://example.com/p/", "https://example.com/p"),
            ("https://example.com/p/app/notes/x?y=1#h", "https://example.com/p/app/notes/x?y=1"),
        ])
    func canonicalForm(input: String, expected: String) throws {
        let route = try Self.router.route(from: input)
        let style: LinkStyle = expected.hasPrefix("https:") ? .universalLink : .customScheme
        #expect(try Self.router.string(for: route, style: style) == expected)
    }

    @Test("an app's own routes: UUID case, Int spelling, default and optional query items")
    func appDefinedForms() throws {
        let router = try ShopRoute.router()
        let cases: [(String, String)] = [
            (
                "shop://orders/0F8FAD5B-D9CB-469F-A165-70867728950E?confirmed=true",
                "shop://orders/0f8fad5b-d9cb-469f-a165-70867728950e?confirmed=true"
            ),
            ("shop://items/0042", "shop://items/42"),
            ("shop://items/-7?tab", "shop://items/-7?tab="),
            ("shop://search?page=1&q=tea", "shop://search?q=tea"),
            ("shop://search?sort=price&q=&page=3", "shop://search?q=&page=3&sort=price"),
            ("shop://share/hi?z=1&a", "shop://share/hi?z=1&a"),
        ]
        for (input, expected) in cases {
            #expect(try router.string(for: router.route(from: input)) == expected, "\(input)")
        }
    }

    @Test("printing is idempotent over generated text: print(parse(print(r))) == print(r)")
    func idempotent() throws {
        var generator = RouteGenerator(seed: 7)
        let router = try ShopRoute.router(pathPrefix: "/links")
        for _ in 0..<500 {
            let text = try router.string(for: generator.shopRoute(), style: .universalLink)
            #expect(try router.string(for: router.route(from: text), style: .universalLink) == text)
        }
    }
}
