import Foundation
import PWAKitErrors
import PWAKitRouting
import Testing

@Suite("Errors: every refusal has a stable code and names the part at fault")
struct RoutingErrorTests {
    static let router = AppRoute.router(
        configuration: try! LinkConfiguration(scheme: "myapp", universalLinkHosts: ["example.com"], pathPrefix: "/p"))

    static func refusal(_ text: String) -> RoutingError? {
        do {
            _ = try router.route(from: text)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "URLs that are not routes",
        arguments: [
            ("", "malformed_url", "scheme"),
            ("settings", "malformed_url", "scheme"),
            ("1app://settings", "malformed_url", "scheme"),
            ("myapp://set tings", "malformed_url", "url"),
            ("myapp://settings\n", "malformed_url", "url"),
            ("myapp://a\u{7F}", "malformed_url", "url"),
            ("javascript:alert(1)", "foreign_scheme", "scheme"),
            ("file:///etc/passwd", "foreign_scheme", "scheme"),
            ("http://example.com/p/settings", "foreign_scheme", "scheme"),
            ("otherapp://settings", "foreign_scheme", "scheme"),
            ("https:example.com/p/settings", "malformed_url", "host"),
            ("https://evil.example/p/settings", "foreign_host", "host"),
            ("https://example.com.evil/p/settings", "foreign_host", "host"),
            ("https://user@example.com/p/settings", "foreign_host", "host"),
            ("https://example.com:444/p/settings", "foreign_host", "host"),
            ("https://example.com/settings", "outside_path_prefix", "path"),
            ("https://example.com/pp/settings", "outside_path_prefix", "path"),
            ("https://example.com/", "outside_path_prefix", "path"),
            ("myapp://notification/%", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/%4", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/%G0", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/%C3%28", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/%ED%A0%80", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/a%00b", "invalid_percent_encoding", "path[1]"),
            ("myapp://notification/a%0Ab", "invalid_percent_encoding", "path[1]"),
            ("https://example.com/p%zz/settings", "invalid_percent_encoding", "path"),
            ("myapp://settings?a=%", "invalid_percent_encoding", "query.a"),
            ("myapp://settings?%FF=1", "invalid_percent_encoding", "query"),
            ("myapp://settings?a=%01", "invalid_percent_encoding", "query.a"),
            ("myapp://items/42", "no_matching_route", "path"),
            ("myapp://settings/more", "no_matching_route", "path"),
            ("myapp://notification", "no_matching_route", "path"),
            ("myapp://notification/", "no_matching_route", "path"),
            ("myapp://Settings", "no_matching_route", "path"),
            ("myapp://app", "no_matching_route", "path"),
            ("myapp://app/Notes", "invalid_parameter", "path[1]"),
            ("myapp://app/-notes", "invalid_parameter", "path[1]"),
            ("myapp://app/notes/../../etc", "invalid_parameter", "path[2]"),
            ("myapp://app/notes/a/%2E", "invalid_parameter", "path[3]"),
            ("myapp://notification/..", "invalid_parameter", "path[1]"),
            ("myapp://notification//x", "invalid_parameter", "path[1]"),
        ])
    func refused(url: String, code: String, field: String) {
        let error = Self.refusal(url)
        #expect(error?.code.rawValue == code, "\(url): \(String(describing: error))")
        #expect(error?.field == field, "\(url): \(String(describing: error))")
    }

    @Test("a specific error names the parameter, its type and the route it was read for")
    func parameterMessages() throws {
        let shop = try ShopRoute.router()
        func refusal(_ text: String) -> RoutingError? {
            do {
                _ = try shop.route(from: text)
                return nil
            } catch { return error }
        }
        let notInt = refusal("shop://items/abc")
        #expect(notInt?.code == .invalidParameter)
        #expect(notInt?.field == "path[1]")
        #expect(notInt?.message == "'abc' is not a valid Int in items/{Int}?tab")
        let empty = refusal("shop://items//compare/2?with=x")
        #expect(empty?.code == .invalidParameter)
        #expect(empty?.message.hasPrefix("an empty segment is not a valid Int") == true)
        #expect(refusal("shop://items/1/compare/x?with=y")?.field == "path[3]")
        #expect(refusal("shop://stores/ab1234/files/x")?.message.contains("store code") == true)
        #expect(refusal("shop://orders/not-a-uuid?confirmed=true")?.code == .invalidParameter)
        #expect(refusal("shop://items/1/compare/2")?.code == .missingQueryItem)
        #expect(refusal("shop://items/1/compare/2")?.field == "query.with")
        #expect(refusal("shop://search")?.field == "query.q")
        #expect(refusal("shop://search?q=a&page=two")?.code == .invalidQueryItem)
        #expect(refusal("shop://search?q=a&page=two")?.field == "query.page")
        #expect(refusal("shop://search?q=a&sort=cheapest")?.field == "query.sort")
        #expect(refusal("shop://orders/0f8fad5b-d9cb-469f-a165-70867728950e?confirmed=yes")?.code == .invalidQueryItem)
        #expect(refusal("shop://search?q=a&q=b")?.code == .duplicateQueryItem)
        #expect(refusal("shop://search?q=a&q=b")?.field == "query.q")
        #expect(refusal("shop://items/1?tab=a&tab=b")?.code == .duplicateQueryItem)
        // A different first segment is no route at all, not a bad parameter of some route.
        #expect(refusal("shop://42")?.code == .noMatchingRoute)
        #expect(refusal("shop://items/1/other")?.code == .noMatchingRoute)
    }

    @Test("routes that cannot be written are refused, not written wrongly")
    func unprintable() throws {
        let router = Self.router
        let bad: [(AppRoute, String?)] = [
            (.notification(id: ""), "path[1]"),
            (.notification(id: "."), "path[1]"),
            (.notification(id: ".."), "path[1]"),
            (.notification(id: "a\u{0}b"), "path[1]"),
            (.miniApp(appId: "Notes", path: "", query: []), "path[1]"),
            (.miniApp(appId: "", path: "", query: []), "path[1]"),
            (.miniApp(appId: String(repeating: "a", count: 65), path: "", query: []), "path[1]"),
            (.miniApp(appId: "notes", path: "a/../b", query: []), "path[3]"),
            (.miniApp(appId: "notes", path: "./b", query: []), "path[2]"),
            (.miniApp(appId: "notes", path: "a\nb", query: []), "path[2]"),
            (.miniApp(appId: "notes", path: "", query: [URLQueryItem(name: "", value: nil)]), "query"),
            (.miniApp(appId: "notes", path: "", query: [URLQueryItem(name: "a\u{1}", value: "x")]), "query.a\u{1}"),
            (.miniApp(appId: "notes", path: "", query: [URLQueryItem(name: "a", value: "\u{0}")]), "query.a"),
        ]
        for (route, field) in bad {
            #expect(throws: RoutingError.self, "\(route)") { try router.string(for: route) }
            do {
                _ = try router.string(for: route)
            } catch {
                #expect(error.code == .unprintableRoute, "\(route)")
                #expect(error.field == field, "\(route): \(error)")
            }
        }
        // Query values may hold line breaks; paths may not.
        let lines = AppRoute.miniApp(appId: "notes", path: "", query: [URLQueryItem(name: "text", value: "a\nb\tc\r")])
        #expect(try router.route(from: router.string(for: lines)) == lines)
    }

    @Test("an app's own route that reads a query item itself refuses it among the remaining ones")
    func remainingQueryClash() throws {
        struct Tagged: Hashable, Sendable {
            var tag: String
            var rest: [URLQueryItem]
        }
        let routes = Routes<Tagged> {
            RouteCase(Tagged.init) {
                "tagged"
                Query("tag", String.self)
                RemainingQuery()
            } extract: {
                ($0.tag, $0.rest)
            }
        }
        let router = Router(routes, configuration: try LinkConfiguration(scheme: "tags"))
        let clash = Tagged(tag: "a", rest: [URLQueryItem(name: "tag", value: "b")])
        #expect(throws: RoutingError.self) { try router.string(for: clash) }
        let fine = Tagged(tag: "a", rest: [URLQueryItem(name: "other", value: "b")])
        #expect(try router.string(for: fine) == "tags://tagged?tag=a&other=b")
        #expect(try router.route(from: "tags://tagged?other=b&tag=a") == fine)
    }

    @Test("a route no case takes is unprintable, naming the missing case")
    func undeclaredCase() throws {
        let partial = Routes<ShopRoute> { RouteCase(ShopRoute.home) {} }
        let router = Router(partial, configuration: try LinkConfiguration(scheme: "shop"))
        do {
            _ = try router.string(for: .cart)
            Issue.record("printed a route no case takes")
        } catch {
            #expect(error.code == .unprintableRoute)
            #expect(error.message.contains("is a RouteCase missing?"))
        }
        #expect(router.route(for: URL(string: "shop://account/cart")!) == nil)
    }

    @Test("a universal link with no host configured is a configuration error")
    func noUniversalHost() throws {
        let router = AppRoute.router(configuration: try LinkConfiguration(scheme: "myapp"))
        #expect(throws: RoutingError.self) { try router.string(for: .home, style: .universalLink) }
        do {
            _ = try router.url(for: .home, style: .universalLink)
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.field == "universalLinkHosts")
        }
        // With no hosts, https is just another scheme.
        #expect(Self.refusalOf(router, "https://example.com/settings")?.code == .foreignScheme)
    }

    static func refusalOf(_ router: Router<AppRoute>, _ text: String) -> RoutingError? {
        do {
            _ = try router.route(from: text)
            return nil
        } catch { return error }
    }

    @Test("the error reads as the one error shape: code, field, message, description")
    func codedError() throws {
        let error = try #require(Self.refusal("myapp://app/Notes"))
        let report = ErrorReport(error)
        #expect(report.code == "invalid_parameter")
        #expect(report.field == "path[1]")
        #expect(
            error.description == "invalid_parameter (path[1]): 'Notes' is not a valid mini-app id in app/{mini-app id}/{...}?...")
    }

    @Test("messages quote at most 80 characters of what arrived")
    func clippedMessages() throws {
        let long = String(repeating: "x", count: 4000)
        /// The text a message quotes between its first two `'`.
        func quoted(_ error: RoutingError?) throws -> Substring {
            let message = try #require(error?.message)
            let parts = message.split(separator: "'", omittingEmptySubsequences: false)
            try #require(parts.count >= 3, "no quote in: \(message)")
            return parts[1]
        }
        let clipped = String(repeating: "x", count: 80) + "…"
        let parameter = Self.refusal("myapp://app/\(long.uppercased())")
        #expect(parameter?.code == .invalidParameter)
        #expect(try quoted(parameter) == String(repeating: "X", count: 80) + "…")
        let scheme = Self.refusal("zz\(long):x")
        #expect(scheme?.code == .malformedURL)
        #expect(try quoted(scheme) == "zz" + String(repeating: "x", count: 78) + "…")
        let unmatched = Self.refusal("myapp://settings/\(long)")
        #expect(unmatched?.code == .noMatchingRoute)
        #expect(try quoted(unmatched) == "settings/" + clipped.dropFirst(9))
        for error in [parameter, scheme, unmatched] { #expect((error?.message.count ?? .max) < 200) }
    }
}
