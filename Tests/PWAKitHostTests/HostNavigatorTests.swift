import PWAKitCore
import Testing

@testable import PWAKitHost

@Suite struct HostNavigatorTests {
    static let navigator = HostNavigator(
        policy: OriginPolicy(
            configuration: PWAConfiguration(
                app: AppSection(name: "Hello", bundleId: "dev.pwakit.hello", startUrl: "app://hello/index.html"),
                origins: OriginsSection(
                    allowed: ["pwakit.dev", "*.pwakit.dev", "localhost"], auth: ["accounts.pwakit.dev"],
                    external: ["github.com"]))))

    @Test(arguments: [
        ("app://hello/index.html", NavigationTarget.mainFrame, HostNavigationAction.load),
        ("https://pwakit.dev/docs", .mainFrame, .load),
        ("https://accounts.pwakit.dev/login", .mainFrame, .loadForSignIn),
        ("https://github.com/x", .mainFrame, .openExternally("https://github.com/x")),
        ("https://unknown.example/", .mainFrame, .openExternally("https://unknown.example/")),
        ("tel:+123", .mainFrame, .openInSystem("tel:+123")),
        ("mailto:a@b.c", .newWindow, .openInSystem("mailto:a@b.c")),
        ("javascript:alert(1)", .mainFrame, .block),
        ("file:///etc/passwd", .mainFrame, .block),
        ("app://other/index.html", .mainFrame, .block),
        ("https://pwakit.dev/", .newWindow, .load),
        ("https://accounts.pwakit.dev/", .subFrame, .load),
        ("https://github.com/", .subFrame, .block),
        ("tel:1", .subFrame, .block),
        ("about:blank", .subFrame, .load),
        ("about:srcdoc", .subFrame, .load),
        ("about:blank", .newWindow, .block),
    ])
    func decides(url: String, target: NavigationTarget, expected: HostNavigationAction) {
        #expect(Self.navigator.decide(url, target: target) == expected)
    }

    @Test func onlyAllowedDocumentsGetAGrant() {
        #expect(Self.navigator.grant(forDocumentAt: "app://hello/x") == .all)
        #expect(Self.navigator.grant(forDocumentAt: "https://app.pwakit.dev/") == .all)
        #expect(Self.navigator.grant(forDocumentAt: "https://accounts.pwakit.dev/") == .denied)
        #expect(Self.navigator.grant(forDocumentAt: "https://github.com/") == .denied)
        #expect(Self.navigator.grant(forDocumentAt: "http://pwakit.dev/") == .denied)
        #expect(Self.navigator.grant(forDocumentAt: "about:blank") == .denied)
    }
}
