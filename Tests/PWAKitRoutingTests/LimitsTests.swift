import Foundation
import PWAKitRouting
import Testing

@Suite("Limits: hostile links are refused before any route is tried")
struct LimitsTests {
    static let router = AppRoute.router(
        configuration: try! LinkConfiguration(scheme: "myapp", universalLinkHosts: ["example.com"], pathPrefix: "/p"))

    static func code(_ text: String, router: Router<AppRoute> = router) -> RoutingError.Code? {
        do {
            _ = try router.route(from: text)
            return nil
        } catch { return error.code }
    }

    @Test("the defaults: 8 KiB URLs, 64 segments, 64 query items, 16 KiB push payloads")
    func defaults() {
        #expect(
            RouteLimits.standard
                == RouteLimits(maximumURLLength: 8192, maximumSegments: 64, maximumQueryItems: 64, maximumPushPayloadSize: 16384))
    }

    @Test("a URL of 8,192 bytes is read; one byte more is refused, and so is a megabyte")
    func length() throws {
        let head = "myapp://app/notes/"
        let exact = head + String(repeating: "a", count: 8192 - head.utf8.count)
        #expect(
            try Self.router.route(from: exact) == .miniApp(appId: "notes", path: String(exact.dropFirst(head.count)), query: []))
        #expect(Self.code(exact + "a") == .urlTooLong)
        #expect(Self.code(head + String(repeating: "%", count: 1 << 20)) == .urlTooLong)
        // Bytes, not characters: 2,800 three-byte characters are 8,400 bytes.
        #expect(Self.code(head + String(repeating: "日", count: 2800)) == .urlTooLong)
    }

    @Test("64 path segments are read, 65 are refused, thousands cost no more")
    func segments() throws {
        let sixtyFour = "myapp://app/notes/" + Array(repeating: "s", count: 62).joined(separator: "/")
        guard case .miniApp(_, let path, _) = try Self.router.route(from: sixtyFour) else {
            Issue.record("not a mini-app route")
            return
        }
        #expect(path.split(separator: "/").count == 62)
        #expect(Self.code(sixtyFour + "/s") == .tooManySegments)
        #expect(Self.code("myapp://" + String(repeating: "/", count: 4000)) == .tooManySegments)
        // The universal-link prefix counts too.
        let universal = "https://example.com/p/app/notes/" + Array(repeating: "s", count: 62).joined(separator: "/")
        #expect(Self.code(universal) == .tooManySegments)
    }

    @Test("64 query items are read, 65 are refused; empty pieces do not count")
    func queryItems() throws {
        let items = (0..<64).map { "k\($0)=v" }
        let link = "myapp://app/notes?" + items.joined(separator: "&")
        guard case .miniApp(_, _, let query) = try Self.router.route(from: link) else {
            Issue.record("not a mini-app route")
            return
        }
        #expect(query.count == 64)
        #expect(Self.code(link + "&k64=v") == .tooManyQueryItems)
        #expect(try Self.router.route(from: "myapp://settings?" + String(repeating: "&", count: 3000)) == .settings)
    }

    @Test("a route whose link would break a limit is not written")
    func printingHonoursLimits() throws {
        let long = AppRoute.miniApp(appId: "notes", path: String(repeating: "a", count: 9000), query: [])
        #expect(throws: RoutingError.self) { try Self.router.string(for: long) }
        let deep = AppRoute.miniApp(appId: "notes", path: Array(repeating: "s", count: 63).joined(separator: "/"), query: [])
        #expect(throws: RoutingError.self) { try Self.router.string(for: deep) }
        // 62 segments plus `app/notes` is 64: fine in the app's scheme, one too many under the prefix.
        let edge = AppRoute.miniApp(appId: "notes", path: Array(repeating: "s", count: 62).joined(separator: "/"), query: [])
        #expect(try Self.router.route(from: Self.router.string(for: edge)) == edge)
        #expect(throws: RoutingError.self) { try Self.router.string(for: edge, style: .universalLink) }
        let many = AppRoute.miniApp(appId: "notes", path: "", query: (0..<65).map { URLQueryItem(name: "k\($0)", value: nil) })
        #expect(throws: RoutingError.self) { try Self.router.string(for: many) }
    }

    @Test("limits are configurable")
    func custom() throws {
        let tight = AppRoute.router(
            configuration: try LinkConfiguration(
                scheme: "myapp", limits: RouteLimits(maximumURLLength: 32, maximumSegments: 3, maximumQueryItems: 1)))
        #expect(
            try tight.route(from: "myapp://app/notes/x?a")
                == .miniApp(appId: "notes", path: "x", query: [URLQueryItem(name: "a", value: nil)]))
        #expect(Self.code("myapp://app/notes/x/y", router: tight) == .tooManySegments)
        #expect(Self.code("myapp://app/notes?a&b", router: tight) == .tooManyQueryItems)
        #expect(Self.code("myapp://app/notes/" + String(repeating: "x", count: 20), router: tight) == .urlTooLong)
    }

    @Test("a thousand hostile links are each refused or read, never a crash")
    func fuzz() {
        var generator = RouteGenerator(seed: 99)
        let heads = ["myapp://", "myapp:", "https://example.com/p/", "https://example.com", "MYAPP://app/", "myapp://app/a/"]
        var refused = 0
        for _ in 0..<1000 {
            let head = heads[generator.int(0...heads.count - 1)]
            let text = head + (0..<generator.int(0...12)).map { _ in generator.text(maximum: 3) }.joined(separator: "/")
            if Self.code(text) != nil { refused += 1 }
        }
        #expect(refused > 100)
    }
}
