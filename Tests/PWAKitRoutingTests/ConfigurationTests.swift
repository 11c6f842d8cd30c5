import PWAKitRouting
import Testing

@Suite("Link configuration: scheme, hosts and prefix are checked")
struct ConfigurationTests {
    static func failure(_ make: () throws -> LinkConfiguration) -> RoutingError? {
        do {
            _ = try make()
            return nil
        } catch { return error as? RoutingError }
    }

    @Test(
        "schemes follow RFC 3986 and are kept in lowercase",
        arguments: ["myapp", "My.App+x-1", "a", "x" + String(repeating: "1", count: 63)])
    func validSchemes(scheme: String) throws {
        let configuration = try LinkConfiguration(scheme: scheme)
        #expect(configuration.scheme.name == scheme.lowercased())
        #expect(URLScheme.isValidSyntax(scheme))
    }

    @Test(
        "other schemes are refused, naming the field",
        arguments: [
            "", "1app", "-app", "my app", "my_app", "my/app", "app:", "é", "x" + String(repeating: "1", count: 64), "http",
            "HTTPS",
        ])
    func invalidSchemes(scheme: String) {
        let error = Self.failure { try LinkConfiguration(scheme: scheme) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.field == "scheme")
    }

    @Test("hosts are DNS names with an optional port, kept in lowercase without duplicates")
    func hosts() throws {
        let configuration = try LinkConfiguration(
            scheme: "a", universalLinkHosts: ["Example.COM", "example.com", "x-1.example:8443", "localhost"])
        #expect(configuration.universalLinkHosts == ["example.com", "x-1.example:8443", "localhost"])
        for bad in [
            "", "exa mple.com", "https://example.com", "example.com/", "-x.com", "x-.com", "a..b", "example.com:",
            "example.com:0", "example.com:65536", "example.com:+80", "bücher.de", "user@example.com",
        ] {
            let error = Self.failure { try LinkConfiguration(scheme: "a", universalLinkHosts: ["ok.example", bad]) }
            #expect(error?.code == .invalidConfiguration, "\(bad)")
            #expect(error?.field == "universalLinkHosts[1]", "\(bad)")
        }
    }

    @Test("the prefix is `/`-separated decoded segments; dot segments and control characters are refused")
    func prefix() throws {
        #expect(try LinkConfiguration(scheme: "a", pathPrefix: "/").pathPrefix == [])
        #expect(try LinkConfiguration(scheme: "a", pathPrefix: "//a//b/").pathPrefix == ["a", "b"])
        for bad in ["/a/../b", "./a", "a/\u{1}"] {
            let error = Self.failure { try LinkConfiguration(scheme: "a", pathPrefix: bad) }
            #expect(error?.field == "pathPrefix", "\(bad)")
        }
        let error = Self.failure {
            try LinkConfiguration(scheme: "a", pathPrefix: "a/b", limits: RouteLimits(maximumSegments: 2))
        }
        #expect(error?.field == "pathPrefix")
    }
}
