import Foundation
import PWAKitBundles
import PWAKitRetry
import PWAKitRouting
import Testing

@Suite("AppRoute: the platform's own routes")
struct AppRouteTests {
    static let router = AppRoute.router(
        configuration: try! LinkConfiguration(scheme: "pwakit", universalLinkHosts: ["apps.example.com"], pathPrefix: "/go"))

    @Test(
        "each route's two URL forms",
        arguments: [
            (AppRoute.home, "pwakit://", "https://apps.example.com/go"),
            (.settings, "pwakit://settings", "https://apps.example.com/go/settings"),
            (.signIn, "pwakit://sign-in", "https://apps.example.com/go/sign-in"),
            (.notification(id: "n-42"), "pwakit://notification/n-42", "https://apps.example.com/go/notification/n-42"),
            (.miniApp(appId: "notes", path: "", query: []), "pwakit://app/notes", "https://apps.example.com/go/app/notes"),
            (
                .miniApp(appId: "dev.example.notes_2", path: "notes/42/edit", query: [URLQueryItem(name: "tab", value: "all")]),
                "pwakit://app/dev.example.notes_2/notes/42/edit?tab=all",
                "https://apps.example.com/go/app/dev.example.notes_2/notes/42/edit?tab=all"
            ),
        ])
    func forms(route: AppRoute, custom: String, universal: String) throws {
        #expect(try Self.router.string(for: route) == custom)
        #expect(try Self.router.string(for: route, style: .universalLink) == universal)
        #expect(try Self.router.route(from: custom) == route)
        #expect(try Self.router.route(from: universal) == route)
    }

    @Test("the scheme and hosts come from the configuration, not the code")
    func configurable() throws {
        let other = AppRoute.router(
            configuration: try LinkConfiguration(scheme: "corner-coffee", universalLinkHosts: ["coffee.example"]))
        #expect(try other.string(for: .settings) == "corner-coffee://settings")
        #expect(try other.string(for: .settings, style: .universalLink) == "https://coffee.example/settings")
        #expect(other.route(for: URL(string: "pwakit://settings")!) == nil)
    }

    @Test("mini-app ids follow the rule of release manifests: 1-64 of a-z 0-9 . _ -, starting with a letter or digit")
    func appIdRule() {
        func manifestAccepts(_ id: String) -> Bool { (try? ManifestRules.checkAppId(id, field: "appId")) != nil }
        let edges = [
            "", "a", "0", "notes", "a.b_c-d", ".a", "_a", "-a", "A", "aB", "a b", "a/b", "é", "a\u{0}",
            String(repeating: "a", count: 64), String(repeating: "a", count: 65), "a..", "9-",
        ]
        for id in edges {
            #expect(MiniAppIdentifier.isValid(id) == manifestAccepts(id), "\(id)")
        }
        var random = SeededRandom(seed: 2024)
        let alphabet = Array("abcxyz019.-_AZ /é%")
        for _ in 0..<5000 {
            let length = Int.random(in: 0...70, using: &random)
            let id = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
            #expect(MiniAppIdentifier.isValid(id) == manifestAccepts(id), "\(id)")
        }
    }

    @Test("the mini-app route keeps the path's empty segments and the query's order, names without values included")
    func miniAppDetails() throws {
        let route = try Self.router.route(from: "pwakit://app/notes//a//?z&y=&x=1")
        #expect(
            route
                == .miniApp(
                    appId: "notes", path: "/a//",
                    query: [
                        URLQueryItem(name: "z", value: nil), URLQueryItem(name: "y", value: ""),
                        URLQueryItem(name: "x", value: "1"),
                    ]))
    }
}
