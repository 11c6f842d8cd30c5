import Testing

@testable import PWAKitCore

@Suite("Origin policy")
struct OriginPolicyTests {
    static func configuration(
        startUrl: String = "https://app.example.com/",
        allowed: [String] = ["example.com", "*.example.com", "localhost:3000"],
        auth: [String] = ["login.example.com", "accounts.google.com"],
        external: [String] = ["blog.example.com", "example.com/press/*", "github.com"],
        grants: [String: [String]]? = nil
    ) -> PWAConfiguration {
        PWAConfiguration(
            app: AppSection(name: "Test", bundleId: "com.example.test", startUrl: startUrl),
            origins: OriginsSection(allowed: allowed, auth: auth, external: external, grants: grants))
    }

    static let policy = OriginPolicy(configuration: configuration())

    @Test(
        "classifies navigations",
        arguments: [
            ("https://example.com/", NavigationDecision.allowed),
            ("https://EXAMPLE.com/Path", .allowed),
            ("https://app.example.com/settings", .allowed),
            ("https://deep.app.example.com/", .allowed),
            ("https://example.com:8443/", .allowed),
            ("https://login.example.com/oauth", .auth),
            ("https://accounts.google.com/o/oauth2", .auth),
            ("https://blog.example.com/post", .external),
            ("https://example.com/press/2024", .external),
            ("https://example.com/press/", .external),
            ("https://example.com/press", .external),
            ("https://example.com/pressure", .allowed),
            ("https://example.com/docs/../press/x", .external),
            ("https://github.com/pwakit", .external),
            ("https://unknown.org/", .external),
            ("https://example.com.evil.net/", .external),
            ("http://example.com/", .external),
            ("http://login.example.com/", .external),
            ("http://localhost:3000/", .allowed),
            ("http://localhost:3001/", .external),
            ("tel:+15551234", .system),
            ("TEL:+15551234", .system),
            ("mailto:a@example.com", .system),
            ("sms:+15551234", .system),
            ("facetime:user@example.com", .system),
            ("maps:?q=Paris", .system),
            ("javascript:alert(1)", .blocked),
            ("JavaScript:alert(1)", .blocked),
            ("java\nscript:alert(1)", .blocked),
            ("file:///etc/passwd", .blocked),
            ("data:text/html,<script>1</script>", .blocked),
            ("blob:https://example.com/uuid", .blocked),
            ("about:blank", .blocked),
            ("app://hello/index.html", .blocked),
            ("https://", .blocked),
            ("not a url", .blocked),
            ("", .blocked),
            ("https://good.example.com@evil.net/", .external),
            ("https://evil.net\\@example.com/", .external),
        ])
    func classify(url: String, expected: NavigationDecision) {
        #expect(Self.policy.classify(url) == expected)
    }

    @Test func precedenceIsExternalThenAuthThenAllowed() {
        let all = OriginPolicy(
            configuration: Self.configuration(
                allowed: ["example.com"], auth: ["example.com"], external: ["example.com"]))
        #expect(all.classify("https://example.com/") == .external)
        let authAndAllowed = OriginPolicy(
            configuration: Self.configuration(allowed: ["*.example.com"], auth: ["*.example.com"], external: []))
        #expect(authAndAllowed.classify("https://a.example.com/") == .auth)
    }

    @Test func appOriginOfThisAppIsAllowed() {
        let policy = OriginPolicy(configuration: Self.configuration(startUrl: "app://hello/index.html"))
        #expect(policy.classify("app://hello/index.html") == .allowed)
        #expect(policy.classify("app://hello/sub/page.html?x=1") == .allowed)
        #expect(policy.classify("APP://HELLO/") == .allowed)
        #expect(policy.classify("app://other/index.html") == .blocked)
        #expect(policy.classify("app://hello:8080/") == .blocked)
        #expect(policy.bridgeGrant(forURL: "app://hello/index.html") == .all)
        #expect(policy.bridgeGrant(forURL: "app://other/index.html") == .denied)
    }

    @Test(
        "grants bridge access per origin",
        arguments: [
            ("https://example.com", BridgeGrant.all),
            ("https://app.example.com:8443", .all),
            ("https://login.example.com", .denied),
            ("https://blog.example.com", .denied),
            ("https://github.com", .denied),
            ("https://unknown.org", .denied),
            ("http://example.com", .denied),
            ("http://localhost:3000", .all),
            ("http://localhost:3001", .denied),
            ("app://hello", .denied),
        ])
    func grants(origin: String, expected: BridgeGrant) throws {
        let origin = try #require(Origin(url: origin))
        #expect(Self.policy.bridgeGrant(for: origin) == expected)
    }

    @Test func pathPatternsNeverDecideBridgeAccess() throws {
        // example.com/press/* is external for navigation, but the origin example.com is allowed.
        #expect(Self.policy.bridgeGrant(forURL: "https://example.com/press/2024") == .all)
        let narrow = OriginPolicy(
            configuration: Self.configuration(allowed: ["example.com/app/*"], auth: [], external: []))
        #expect(narrow.classify("https://example.com/other") == .external)
        #expect(narrow.bridgeGrant(forURL: "https://example.com/other") == .all)
    }

    @Test func grantsNarrowModules() throws {
        let policy = OriginPolicy(
            configuration: Self.configuration(
                grants: ["example.com": ["haptics", "share.share"], "*.example.com": ["platform"]]))
        let root = policy.bridgeGrant(forURL: "https://example.com/")
        #expect(root == .only(["haptics", "share.share", "platform"]))
        #expect(root.permits(module: "haptics", action: "impact"))
        #expect(root.permits(module: "share", action: "share"))
        #expect(!root.permits(module: "share", action: "other"))
        #expect(!root.permits(module: "biometrics", action: "authenticate"))
        let sub = policy.bridgeGrant(forURL: "https://app.example.com/")
        #expect(sub == .only(["platform"]))
        // Allowed, but named by no grants key: it reaches the bridge with no module.
        let unnamed = policy.bridgeGrant(forURL: "http://localhost:3000/")
        #expect(unnamed == .only([]))
        #expect(!unnamed.permits(module: "platform", action: "getInfo"))
        #expect(policy.bridgeGrant(forURL: "https://unknown.org/") == .denied)
    }

    @Test func grantPermits() {
        #expect(!BridgeGrant.denied.permits(module: "a", action: "b"))
        #expect(BridgeGrant.all.permits(module: "a", action: "b"))
        #expect(BridgeGrant.only(["a.b"]).permits(module: "a", action: "b"))
        #expect(!BridgeGrant.only(["a.b"]).permits(module: "a", action: "c"))
        #expect(!BridgeGrant.only(["a"]).permits(module: "ab", action: "c"))
    }

    @Test(
        "grant entry syntax",
        arguments: [
            ("haptics", true), ("share.share", true), ("secureStorage.get", true), ("a_b-c.d", true),
            ("", false), (".", false), ("haptics.", false), (".impact", false), ("a.b.c", false), ("1module", false),
            ("mod ule", false), ("*", false), ("module.*", false),
        ])
    func entrySyntax(entry: String, valid: Bool) {
        #expect(BridgeGrant.isWellFormedEntry(entry) == valid)
    }
}

@Suite struct AppOriginGrantTests {
    @Test func grantsNamingTheAppsIdNarrowItsOwnOrigin() throws {
        let configuration = PWAConfiguration(
            app: AppSection(name: "Quiz", bundleId: "miniapp.quiz", startUrl: "app://quiz/index.html"),
            origins: OriginsSection(allowed: ["example.com"], grants: ["quiz": ["session", "haptics.impact"]]))
        let policy = OriginPolicy(configuration: configuration)
        #expect(policy.bridgeGrant(forURL: "app://quiz/index.html") == .only(["session", "haptics.impact"]))
        #expect(policy.bridgeGrant(forURL: "app://quiz/index.html").permits(module: "haptics", action: "impact"))
        #expect(!policy.bridgeGrant(forURL: "app://quiz/index.html").permits(module: "clipboard", action: "read"))
        // Another app's origin is still refused, and an allowed https origin no key names gets nothing.
        #expect(policy.bridgeGrant(forURL: "app://chess/index.html") == .denied)
        #expect(policy.bridgeGrant(forURL: "https://example.com/") == .only([]))
    }

    @Test(
        "an app id no host pattern allows (quiz_game, app-, a..b, 64 characters in one label) still narrows its own origin",
        arguments: ["quiz_game", "app-", "a..b", String(repeating: "q", count: 64)])
    func anAppIdThatIsNoPatternStillNarrowsItsOwnOrigin(appId: String) throws {
        #expect(throws: OriginPatternError.self) { try OriginPattern(parsing: appId) }
        let configuration = PWAConfiguration(
            app: AppSection(name: "Quiz", bundleId: "miniapp.quiz", startUrl: "app://\(appId)/index.html"),
            origins: OriginsSection(allowed: [], grants: [appId: ["platform"]]))
        let policy = OriginPolicy(configuration: configuration)
        let grant = policy.bridgeGrant(forURL: "app://\(appId)/index.html")
        #expect(grant == .only(["platform"]), "\(appId)")
        #expect(!grant.permits(module: "payments", action: "request"))
    }

    @Test func aKeyThatIsTheAppsIdNeverGrantsAWebPageOfThatHost() {
        // NB: a mini-app whose id is also a host, opened with that site allowed.
        let configuration = PWAConfiguration(
            app: AppSection(name: "Shop", bundleId: "miniapp.shop", startUrl: "app://shop.example.com/index.html"),
            origins: OriginsSection(allowed: ["shop.example.com", "localhost:5173"], grants: ["shop.example.com": ["payments"]]))
        let policy = OriginPolicy(configuration: configuration)
        #expect(policy.bridgeGrant(forURL: "app://shop.example.com/index.html") == .only(["payments"]))
        #expect(policy.bridgeGrant(forURL: "https://shop.example.com/") == .only([]))
        let local = PWAConfiguration(
            app: AppSection(name: "Local", bundleId: "miniapp.localhost", startUrl: "app://localhost/index.html"),
            origins: OriginsSection(allowed: ["localhost:5173"], grants: ["localhost": ["payments"]]))
        #expect(OriginPolicy(configuration: local).bridgeGrant(forURL: "http://localhost:5173/") == .only([]))
    }

    @Test func withoutAKeyForItsIdTheAppsOwnOriginGetsEverything() {
        let configuration = PWAConfiguration(
            app: AppSection(name: "Quiz", bundleId: "miniapp.quiz", startUrl: "app://quiz/index.html"),
            origins: OriginsSection(allowed: ["example.com"], grants: ["example.com": ["session"]]))
        #expect(OriginPolicy(configuration: configuration).bridgeGrant(forURL: "app://quiz/") == .all)
    }
}
