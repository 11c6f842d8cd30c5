import Testing

@testable import PWAKitCore

@Suite("Origins and URL parts")
struct OriginTests {
    @Test(
        "normalises",
        arguments: [
            ("https://a.example.com:8443/x", "https://a.example.com:8443"),
            ("HTTPS://Example.COM:443/path?q#f", "https://example.com"),
            ("http://example.com:80", "http://example.com"),
            ("http://example.com:8080", "http://example.com:8080"),
            ("https://user:pass@example.com/", "https://example.com"),
            ("https://good.com@evil.com/", "https://evil.com"),
            ("https://evil.com\\@good.com/", "https://evil.com"),
            ("http://[::1]:3000/", "http://[::1]:3000"),
            ("app://hello/index.html", "app://hello"),
            ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example"),
            ("https://example.com", "https://example.com"),
            ("https://example.com?x", "https://example.com"),
        ])
    func normalises(url: String, expected: String) throws {
        let origin = try #require(Origin(url: url))
        #expect(origin.description == expected)
    }

    @Test(
        "has no origin",
        arguments: [
            "tel:+123", "mailto:a@example.com", "data:text/html,hi", "javascript:alert(1)", "example.com",
            "//example.com", "https://", "https://:443/", "https://exa mple.com/", "https://%65xample.com/",
            "https://example.com:99999/", "https://example.com:8o/", "https://[::1/", "https://[]/", "", ":",
            "1http://x",
            "https://exa<mple.com/",
        ])
    func rejects(url: String) {
        #expect(Origin(url: url) == nil)
    }

    @Test func equalityIgnoresDefaultPortsAndCase() {
        #expect(Origin(url: "https://EXAMPLE.com:443") == Origin(url: "https://example.com/"))
        #expect(Origin(url: "https://example.com") != Origin(url: "http://example.com"))
        #expect(Origin(scheme: "HTTPS", host: "Example.com", port: 443) == Origin(url: "https://example.com"))
        #expect(Origin(scheme: "https", host: "a.com/b") == nil)
        #expect(Origin(scheme: "https", host: "a.com", port: 70000) == nil)
    }

    @Test func effectivePortAndTrust() throws {
        let https = try #require(Origin(url: "https://example.com"))
        #expect(https.effectivePort == 443)
        #expect(https.isPotentiallyTrustworthy)
        let cleartext = try #require(Origin(url: "http://example.com"))
        #expect(cleartext.effectivePort == 80)
        #expect(!cleartext.isPotentiallyTrustworthy)
        let local = try #require(Origin(url: "http://127.0.0.1:8080"))
        #expect(local.isLoopback && local.isPotentiallyTrustworthy)
        let app = try #require(Origin(url: "app://hello/"))
        #expect(app.effectivePort == nil && app.isPotentiallyTrustworthy)
    }

    @Test(
        "removes dot segments",
        arguments: [
            ("/docs/../admin", "/admin"), ("/docs/./a", "/docs/a"), ("/a/b/..", "/a/"), ("/..", "/"),
            ("/docs/%2e%2e/admin", "/admin"), ("/docs/%2E./x", "/x"), ("/a//b", "/a//b"), ("/", "/"),
        ])
    func dotSegments(path: String, expected: String) {
        #expect(URLParts.removingDotSegments(path) == expected)
    }

    @Test func opaqueURLsKeepTheirSchemeAndPath() throws {
        let parts = try #require(URLParts("MAILTO:someone@example.com?subject=x"))
        #expect(parts.scheme == "mailto")
        #expect(parts.host == nil)
        #expect(parts.path == "someone@example.com")
    }
}
