import Testing

@testable import PWAKitCore

@Suite("Origin patterns")
struct OriginPatternTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var text: String
        var host: String
        var subdomains: Bool
        var port: Int?
        var path: String?
        var prefix: Bool
        var canonical: String
        var testDescription: String { text }
    }

    static let valid: [Valid] = [
        .init(
            text: "example.com", host: "example.com", subdomains: false, port: nil, path: nil, prefix: false,
            canonical: "example.com"),
        .init(
            text: "*.example.com", host: "example.com", subdomains: true, port: nil, path: nil, prefix: false,
            canonical: "*.example.com"),
        .init(
            text: "Example.COM", host: "example.com", subdomains: false, port: nil, path: nil, prefix: false,
            canonical: "example.com"),
        .init(
            text: "localhost:8080", host: "localhost", subdomains: false, port: 8080, path: nil, prefix: false,
            canonical: "localhost:8080"),
        .init(
            text: "*.example.com:8443", host: "example.com", subdomains: true, port: 8443, path: nil, prefix: false,
            canonical: "*.example.com:8443"),
        .init(
            text: "example.com/docs/*", host: "example.com", subdomains: false, port: nil, path: "/docs/", prefix: true,
            canonical: "example.com/docs/*"),
        .init(
            text: "example.com/exact", host: "example.com", subdomains: false, port: nil, path: "/exact", prefix: false,
            canonical: "example.com/exact"),
        .init(
            text: "[::1]:3000", host: "[::1]", subdomains: false, port: 3000, path: nil, prefix: false,
            canonical: "[::1]:3000"),
        .init(
            text: "127.0.0.1", host: "127.0.0.1", subdomains: false, port: nil, path: nil, prefix: false,
            canonical: "127.0.0.1"),
        .init(
            text: "xn--bcher-kva.example", host: "xn--bcher-kva.example", subdomains: false, port: nil, path: nil,
            prefix: false, canonical: "xn--bcher-kva.example"),
        .init(
            text: "a-b.c-d.example", host: "a-b.c-d.example", subdomains: false, port: nil, path: nil, prefix: false,
            canonical: "a-b.c-d.example"),
        .init(
            text: "example.com:65535", host: "example.com", subdomains: false, port: 65535, path: nil, prefix: false,
            canonical: "example.com:65535"),
    ]

    @Test("parses", arguments: valid)
    func parses(_ row: Valid) throws {
        let pattern = try OriginPattern(parsing: row.text)
        #expect(pattern.host == row.host)
        #expect(pattern.includesSubdomains == row.subdomains)
        #expect(pattern.port == row.port)
        #expect(pattern.path == row.path)
        #expect(pattern.pathIsPrefix == row.prefix)
        #expect(pattern.description == row.canonical)
        #expect(try OriginPattern(parsing: pattern.description) == pattern)
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var text: String
        var code: OriginPatternError.Code
        var message: String
        var testDescription: String { text.isEmpty ? "(empty)" : text }
    }

    static let invalid: [Invalid] = [
        .init(text: "", code: .empty, message: "\"\": empty pattern"),
        .init(text: "*.", code: .emptyLabel, message: "\"*.\": empty label"),
        .init(text: "a..b", code: .emptyLabel, message: "\"a..b\": empty label"),
        .init(text: ".example.com", code: .emptyLabel, message: "\".example.com\": empty label"),
        .init(text: "example.com.", code: .emptyLabel, message: "\"example.com.\": empty label"),
        .init(
            text: "https://example.com", code: .scheme,
            message: "\"https://example.com\": patterns name a host, not a URL: remove \"https://\""),
        .init(text: "exa mple.com", code: .whitespace, message: "\"exa mple.com\": contains whitespace"),
        .init(text: "example.com\n", code: .whitespace, message: "\"example.com\n\": contains whitespace"),
        .init(text: "ex!ample.com", code: .invalidCharacter, message: "\"ex!ample.com\": invalid character '!'"),
        .init(text: "ex_ample.com", code: .invalidCharacter, message: "\"ex_ample.com\": invalid character '_'"),
        .init(
            text: "user@example.com", code: .invalidCharacter, message: "\"user@example.com\": invalid character '@'"),
        .init(
            text: "bücher.example", code: .nonASCII,
            message: "\"bücher.example\": non-ASCII character 'ü': write the host in punycode (xn--…)"),
        .init(text: "*", code: .wildcard, message: "\"*\": a lone '*' would match every site: write '*.example.com'"),
        .init(
            text: "a.*.example.com", code: .wildcard,
            message: "\"a.*.example.com\": '*' is only allowed as the whole leftmost label, as in '*.example.com'"),
        .init(
            text: "*example.com", code: .wildcard,
            message: "\"*example.com\": '*' is only allowed as the whole leftmost label, as in '*.example.com'"),
        .init(
            text: "**.example.com", code: .wildcard,
            message: "\"**.example.com\": '*' is only allowed as the whole leftmost label, as in '*.example.com'"),
        .init(text: "*.10.0.0.1", code: .wildcard, message: "\"*.10.0.0.1\": '*.' cannot precede an IP address"),
        .init(text: "example.com:", code: .invalidPort, message: "\"example.com:\": empty port"),
        .init(
            text: "example.com:0", code: .invalidPort,
            message: "\"example.com:0\": port \"0\" is not a number from 1 to 65535"),
        .init(
            text: "example.com:65536", code: .invalidPort,
            message: "\"example.com:65536\": port \"65536\" is not a number from 1 to 65535"),
        .init(
            text: "example.com:http", code: .invalidPort,
            message: "\"example.com:http\": port \"http\" is not a number from 1 to 65535"),
        .init(
            text: "example.com:-1", code: .invalidPort,
            message: "\"example.com:-1\": port \"-1\" is not a number from 1 to 65535"),
        .init(
            text: "example.com/a*/b", code: .invalidPath,
            message: "\"example.com/a*/b\": '*' is only allowed at the end of a path"),
        .init(
            text: "example.com/a?b", code: .invalidPath,
            message: "\"example.com/a?b\": a path pattern cannot contain '?' or '#'"),
        .init(
            text: "-example.com", code: .invalidLabel,
            message: "\"-example.com\": label \"-example\" starts or ends with a hyphen"),
        .init(
            text: "example-.com", code: .invalidLabel,
            message: "\"example-.com\": label \"example-\" starts or ends with a hyphen"),
        .init(
            text: String(repeating: "a", count: 64) + ".com", code: .invalidLabel,
            message: "\"\(String(repeating: "a", count: 64)).com\": label longer than 63 characters"),
        .init(text: "[::1", code: .invalidCharacter, message: "\"[::1\": unclosed '['"),
        .init(text: "[zz]", code: .invalidCharacter, message: "\"[zz]\": invalid IPv6 address \"[zz]\""),
        .init(text: "/path/*", code: .emptyLabel, message: "\"/path/*\": empty host"),
        .init(text: ":8080", code: .emptyLabel, message: "\":8080\": empty host"),
    ]

    @Test("rejects with a precise message", arguments: invalid)
    func rejects(_ row: Invalid) {
        #expect {
            try OriginPattern(parsing: row.text)
        } throws: { error in
            guard let error = error as? OriginPatternError else { return false }
            return error.code == row.code && error.description == row.message && error.pattern == row.text
        }
    }

    @Test func rejectsOverlongHost() {
        let host = Array(repeating: String(repeating: "a", count: 60), count: 5).joined(separator: ".")
        #expect(throws: OriginPatternError.self) { try OriginPattern(parsing: host) }
    }

    @Test func hostileInputNeverCrashes() {
        let hostile = [
            String(repeating: "*.", count: 10_000), String(repeating: "a", count: 100_000), "\u{0}", "[", "]", ":", "/",
            "*", "[]", "[::1]x", "a:b:c", "a/b/c/*/*", "%2e%2e", "\u{202E}moc.elpmaxe",
        ]
        for text in hostile {
            _ = try? OriginPattern(parsing: text)
        }
        #expect(throws: OriginPatternError.self) { try OriginPattern(parsing: String(repeating: "*.", count: 10_000)) }
    }

    struct Match: Sendable, CustomTestStringConvertible {
        var pattern: String
        var origin: String
        var matches: Bool
        var testDescription: String { "\(pattern) ~ \(origin)" }
    }

    static let matches: [Match] = [
        .init(pattern: "example.com", origin: "https://example.com", matches: true),
        .init(pattern: "example.com", origin: "https://EXAMPLE.com", matches: true),
        .init(pattern: "EXAMPLE.COM", origin: "https://example.com", matches: true),
        .init(pattern: "example.com", origin: "https://www.example.com", matches: false),
        .init(pattern: "example.com", origin: "https://notexample.com", matches: false),
        .init(pattern: "example.com", origin: "https://example.com.evil.net", matches: false),
        .init(pattern: "*.example.com", origin: "https://example.com", matches: true),
        .init(pattern: "*.example.com", origin: "https://a.example.com", matches: true),
        .init(pattern: "*.example.com", origin: "https://a.b.example.com", matches: true),
        .init(pattern: "*.example.com", origin: "https://badexample.com", matches: false),
        .init(pattern: "*.example.com", origin: "https://example.com.evil.net", matches: false),
        .init(pattern: "example.com", origin: "https://example.com:8443", matches: true),
        .init(pattern: "example.com:8443", origin: "https://example.com:8443", matches: true),
        .init(pattern: "example.com:8443", origin: "https://example.com", matches: false),
        .init(pattern: "example.com:443", origin: "https://example.com", matches: true),
        .init(pattern: "example.com:443", origin: "https://example.com:443", matches: true),
        .init(pattern: "example.com:80", origin: "http://example.com", matches: true),
        .init(pattern: "example.com:80", origin: "https://example.com", matches: false),
        .init(pattern: "localhost:3000", origin: "http://localhost:3000", matches: true),
        .init(pattern: "localhost:3000", origin: "http://localhost:3001", matches: false),
        .init(pattern: "[::1]:3000", origin: "http://[::1]:3000", matches: true),
        .init(pattern: "xn--bcher-kva.example", origin: "https://xn--bcher-kva.example", matches: true),
        .init(pattern: "xn--bcher-kva.example", origin: "https://bücher.example", matches: false),
        .init(pattern: "example.com/docs/*", origin: "https://example.com", matches: true),
        .init(pattern: "example.com/docs/*", origin: "https://other.com", matches: false),
    ]

    @Test("matches origins by host and port only", arguments: matches)
    func matchesOrigin(_ row: Match) throws {
        let pattern = try OriginPattern(parsing: row.pattern)
        let origin = try #require(Origin(url: row.origin))
        #expect(pattern.matches(origin) == row.matches)
    }

    struct Cover: Sendable, CustomTestStringConvertible {
        var inner: String
        var outer: String
        var covered: Bool
        var testDescription: String { "\(inner) ⊆ \(outer)" }
    }

    static let covers: [Cover] = [
        .init(inner: "example.com", outer: "example.com", covered: true),
        .init(inner: "example.com", outer: "*.example.com", covered: true),
        .init(inner: "a.example.com", outer: "*.example.com", covered: true),
        .init(inner: "*.a.example.com", outer: "*.example.com", covered: true),
        .init(inner: "*.example.com", outer: "*.example.com", covered: true),
        .init(inner: "*.example.com", outer: "example.com", covered: false),
        .init(inner: "a.example.com", outer: "example.com", covered: false),
        .init(inner: "other.com", outer: "*.example.com", covered: false),
        .init(inner: "example.com:8443", outer: "example.com", covered: true),
        .init(inner: "example.com", outer: "example.com:8443", covered: false),
        .init(inner: "example.com", outer: "example.com/app/*", covered: true),
    ]

    @Test("coverage of one pattern by another", arguments: covers)
    func coverage(_ row: Cover) throws {
        let inner = try OriginPattern(parsing: row.inner)
        let outer = try OriginPattern(parsing: row.outer)
        #expect(inner.isCovered(by: outer) == row.covered)
    }
}
