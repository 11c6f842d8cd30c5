import Foundation
import PWAKitRetry
import Testing

@testable import PWAKitLinks

@Suite("Canonical URLs")
struct CanonicalURLTests {
    static func canonical(_ text: String) throws -> String { try CanonicalURL(text).description }

    @Test(
        "RFC 3986 normalisation and tracking removal",
        arguments: [
            ("HTTPS://Example.COM:443/a/./b/../c?x=1#frag", "https://example.com/a/c?x=1"),
            ("http://example.com:80", "http://example.com/"),
            ("http://example.com:8080/", "http://example.com:8080/"),
            ("https://example.com.", "https://example.com/"),
            ("  https://example.com/page  ", "https://example.com/page"),
            ("https://example.com/%7euser/%2fx%3a", "https://example.com/~user/%2Fx%3A"),
            ("https://example.com/a b/é", "https://example.com/a%20b/%C3%A9"),
            ("https://example.com/100%", "https://example.com/100%25"),
            ("https://example.com/a/%2E%2E/b", "https://example.com/b"),
            ("https://example.com/../../x", "https://example.com/x"),
            ("https://example.com/a/..", "https://example.com/"),
            ("https://example.com/?utm_source=x&id=7&UTM_MEDIUM=y&fbclid=z", "https://example.com/?id=7"),
            ("https://example.com/?utm_source=x", "https://example.com/"),
            ("https://example.com/?&&a=1&&", "https://example.com/?a=1"),
            ("https://example.com/?b=2&a=1", "https://example.com/?b=2&a=1"),
            ("https://example.com/?q=a+b&k=x=y", "https://example.com/?q=a+b&k=x=y"),
            ("https://www.youtube.com/watch?v=abc&si=track&feature=share", "https://www.youtube.com/watch?v=abc"),
            ("https://youtu.be/abc?si=xyz", "https://youtu.be/abc"),
            ("https://x.com/user/status/1?s=20&t=abc", "https://x.com/user/status/1"),
            ("https://www.amazon.com/dp/B0123/ref=sr_1_1?keywords=tea&qid=1&th=1", "https://www.amazon.com/dp/B0123"),
            ("https://example.com/?s=20", "https://example.com/?s=20"),
            ("https://app.example.com/#/inbox/3", "https://app.example.com/#/inbox/3"),
            ("https://example.com/#!/a b", "https://example.com/#!/a%20b"),
            ("https://[2001:DB8:0:0:0:0:0:1]:8443/x", "https://[2001:db8::1]:8443/x"),
            ("https://192.168.0.1/", "https://192.168.0.1/"),
            ("https://my_site.example.com/", "https://my_site.example.com/"),
        ])
    func normalises(input: String, expected: String) throws {
        #expect(try Self.canonical(input) == expected)
        #expect(try Self.canonical(expected) == expected)
    }

    @Test(
        "refusals name the part at fault",
        arguments: [
            ("ftp://example.com/", "unsupported_scheme", "scheme"),
            ("javascript:alert(1)", "invalid_url", "url"),
            ("example.com/page", "invalid_url", "url"),
            ("https://user:pass@example.com/", "credentials_in_url", "url"),
            ("https://@example.com/", "credentials_in_url", "url"),
            ("https://example.com:0/", "invalid_port", "port"),
            ("https://example.com:70000/", "invalid_port", "port"),
            ("https://example.com:8a/", "invalid_port", "port"),
            ("https:///path", "invalid_host", "host"),
            ("https://bücher.example/", "invalid_host", "host"),
            ("https://0x7f.1/", "invalid_host", "host"),
            ("https://2130706433/", "invalid_host", "host"),
            ("https://0177.0.0.1/", "invalid_host", "host"),
            ("https://127.1/", "invalid_host", "host"),
            ("https://[fe80::1%25eth0]/", "invalid_host", "host"),
            ("https://[::1/", "invalid_host", "host"),
            ("https://-bad-.example/", "invalid_host", "host"),
            ("https://exa mple.com/", "invalid_host", "host"),
            ("https://example.com/\u{0}", "invalid_url", "url"),
        ])
    func refuses(input: String, code: String, field: String) {
        do {
            _ = try CanonicalURL(input)
            Issue.record("\(input) was accepted")
        } catch {
            #expect(error.code.rawValue == code, "\(input): \(error)")
            #expect(error.field == field, "\(input): \(error)")
        }
    }

    @Test("an oversized URL is refused before any work, and after escaping too")
    func oversized() {
        let long = "https://example.com/" + String(repeating: "a", count: 3000)
        #expect(throws: LinkError.self) { try CanonicalURL(long) }
        let grows = "https://example.com/" + String(repeating: "é", count: 600)  // 1,220 bytes, 3,620 escaped
        #expect(throws: LinkError.self) { try CanonicalURL(grows) }
    }

    @Test("canonicalisation is idempotent on 10,000 fuzzed URLs")
    func idempotent() throws {
        var random = SeededRandom(seed: 0x5EED_0023)
        let pieces = [
            "a", "B", "%2e", "%2E", ".", "..", "%41", "%7e", "%", "%zz", "é", " ", "/", "//", "?", "&", "=", "#", "#!", "#/",
            "utm_source=x", "fbclid=1", "si=2", "id=3", "+", "~", "%2F", "%25", ":", "@", ";", "[", "]", "'", "\"", "<", "{", "|",
            "ref=abc", "%C3%A9", "%c3%a9",
        ]
        let hosts = [
            "Example.com", "example.com.", "[::FFFF:127.0.0.1]", "10.0.0.1", "youtube.com", "www.amazon.com", "x.com",
            "a-b.c_d.example",
        ]
        var checked = 0
        for _ in 0..<10_000 {
            var text = (random.next() % 2 == 0 ? "http" : "HTTPS") + "://" + hosts[Int(random.next() % UInt64(hosts.count))]
            if random.next() % 4 == 0 { text += ":" + String(random.next() % 70_000) }
            // NB: the path starts after the authority; a piece there would only make another host.
            text += "/"
            for _ in 0..<Int(random.next() % 12) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            guard let first = try? CanonicalURL(text) else { continue }
            let second = try CanonicalURL(first.description)
            #expect(second == first, "\(text) → \(first) → \(second)")
            #expect(second.description == first.description)
            checked += 1
        }
        #expect(checked >= 8_000, "only \(checked) of 10,000 fuzzed URLs were accepted")
    }

    @Test("the embedded rule list is the file in Rules/ (run scripts/embed-rules after changing it), and every rule compiles")
    func rules() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("Rules/tracking-parameters.json"))
        #expect(StandardTrackingRules.text == String(decoding: file, as: UTF8.self))
        let parsed = try TrackingRules(json: file)
        #expect(parsed.global.count == TrackingRules.standard.global.count)
        #expect(!parsed.providers.isEmpty)
        let canonical = try CanonicalURL("https://example.com/?utm_campaign=a&gclid=b&keep=1", rules: parsed)
        #expect(canonical.description == "https://example.com/?keep=1")
        #expect(throws: LinkError.self) {
            try TrackingRules(json: Data(#"{"version":1,"global":["(unclosed"],"providers":[]}"#.utf8))
        }
        #expect(throws: LinkError.self) { try TrackingRules(json: Data("[]".utf8)) }
        let none = try CanonicalURL("https://example.com/?utm_source=x", rules: .none)
        #expect(none.description == "https://example.com/?utm_source=x")
    }
}
