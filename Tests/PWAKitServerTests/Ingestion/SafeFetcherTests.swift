import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PWAKitLinks
import Synchronization
import Testing

@testable import PWAKitServer

/// A plain TCP server answering canned HTTP by path, counting every connection it accepts.
final class CountingSite: Sendable {
    let connections = Atomic(0)
    let hosts = Mutex<[String]>([])
    let answer: @Sendable (String) -> [UInt8]?
    private let channel: Mutex<(any Channel)?> = Mutex(nil)

    let tls: NIOSSLContext?

    /// A site answering each path with raw bytes (nil: never answer), over TLS with `tls`.
    init(tls: NIOSSLContext? = nil, bytes: @escaping @Sendable (String) -> [UInt8]?) {
        self.answer = bytes
        self.tls = tls
    }

    /// A site answering each path with text (nil: never answer).
    convenience init(answer: @escaping @Sendable (String) -> String?) { self.init(bytes: { answer($0).map { Array($0.utf8) } }) }

    var port: Int { channel.withLock { $0?.localAddress?.port ?? 0 } }

    func start() async throws {
        let site = self
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                site.connections.add(1, ordering: .relaxed)
                return child.eventLoop.makeCompletedFuture {
                    if let tls = site.tls { try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try child.pipeline.syncOperations.addHandler(Responder(site: site))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel.withLock { $0 = bound }
    }

    func stop() async { try? await channel.withLock { $0 }?.close().get() }

    final class Responder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let site: CountingSite
        var request = ""
        init(site: CountingSite) { self.site = site }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            request += buffer.readString(length: buffer.readableBytes) ?? ""
            guard request.contains("\r\n\r\n") else { return }
            let lines = request.split(separator: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            if let host = lines.first(where: { $0.lowercased().hasPrefix("host:") }) {
                site.hosts.withLock { $0.append(host.dropFirst(5).trimmingCharacters(in: .whitespaces)) }
            }
            // NB: nil means "never answer" (a slow page).
            guard let response = site.answer(path) else { return }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: response))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// A resolver with fixed answers, counting lookups; `rebind` answers differently after the first lookup.
final class FixedResolver: HostResolver {
    let answers: [String: [[UInt8]]]
    let rebind: [String: [[UInt8]]]
    let lookups = Mutex<[String: Int]>([:])

    init(_ answers: [String: [[UInt8]]], rebind: [String: [[UInt8]]] = [:]) {
        self.answers = answers
        self.rebind = rebind
    }

    func addresses(of host: String) async throws -> [[UInt8]] {
        let count = lookups.withLock { lookups in
            lookups[host, default: 0] += 1
            return lookups[host, default: 0]
        }
        if count > 1, let later = rebind[host] { return later }
        return answers[host] ?? []
    }
}

@Suite("Fetching shared links safely")
struct SafeFetcherTests {
    static func ok(_ body: String, type: String = "text/html") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    static func redirect(_ location: String) -> String {
        "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    }

    @Test("no link reaches a forbidden address: literals, names, mixed answers, rebinding, redirects")
    func ssrf() async throws {
        let forbidden = CountingSite { _ in Self.ok("secret") }
        try await forbidden.start()
        let forbiddenPort = forbidden.port
        let site = CountingSite { path in
            switch path {
            case "/page": Self.ok("<title>Hi</title>")
            case "/to-loopback": Self.redirect("http://127.0.0.1:\(forbiddenPort)/")
            case "/to-name": Self.redirect("http://evil.test:\(forbiddenPort)/")
            case "/to-metadata": Self.redirect("http://169.254.169.254/latest/meta-data/")
            case "/to-file": Self.redirect("file:///etc/passwd")
            case let other where other.hasPrefix("/loop"): Self.redirect("/loop\(other.count)")
            default: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
            }
        }
        try await site.start()
        let sitePort = site.port
        let resolver = FixedResolver(
            [
                "site.test": [[127, 0, 0, 1]], "evil.test": [[127, 0, 0, 1]], "private.test": [[10, 0, 0, 7]],
                "mixed.test": [[127, 0, 0, 1], [10, 0, 0, 1]],
                "mapped.test": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]],
                "rebind.test": [[127, 0, 0, 1]],
            ],
            rebind: ["rebind.test": [[169, 254, 169, 254]]])
        // NB: the test site stands in for a public server: its one address and port are allowed, nothing else.
        let fetcher = SafeFetcher(resolver: resolver) { address, port in
            address == [127, 0, 0, 1] && port == sitePort
                ? nil
                : (address.count == 4 ? AddressPolicy.refusal(ipv4: address) : AddressPolicy.refusal(ipv6: address))
                    ?? "not the test site"
        }
        let page = try await fetcher.fetch(try CanonicalURL("http://site.test:\(sitePort)/page"))
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self) == "<title>Hi</title>")
        #expect(site.hosts.withLock { $0 }.contains("site.test:\(sitePort)"))

        let refused: [(String, FetchError.Code)] = [
            ("http://127.0.0.1:\(forbiddenPort)/", .forbiddenAddress),
            ("http://evil.test:\(forbiddenPort)/", .forbiddenAddress),
            ("http://private.test:\(sitePort)/", .forbiddenAddress),
            ("http://mixed.test:\(sitePort)/page", .forbiddenAddress),
            ("http://mapped.test:\(forbiddenPort)/", .forbiddenAddress),
            ("http://[::ffff:127.0.0.1]:\(forbiddenPort)/", .forbiddenAddress),
            ("http://[::1]:\(forbiddenPort)/", .forbiddenAddress),
            ("http://169.254.169.254/latest/meta-data/", .forbiddenAddress),
            ("http://nowhere.test/", .unresolvable),
            ("http://site.test:\(sitePort)/to-loopback", .forbiddenAddress),
            ("http://site.test:\(sitePort)/to-name", .forbiddenAddress),
            ("http://site.test:\(sitePort)/to-metadata", .forbiddenAddress),
            ("http://site.test:\(sitePort)/to-file", .badRedirect),
            ("http://site.test:\(sitePort)/loop", .tooManyRedirects),
        ]
        for (url, code) in refused {
            let link = try CanonicalURL(url)
            do {
                _ = try await fetcher.fetch(link)
                Issue.record("\(url) was fetched")
            } catch {
                #expect(error.code == code, "\(url): \(error)")
            }
        }
        // The rebinding name is resolved once per fetch and the checked address is the one connected to.
        let rebound = try await fetcher.fetch(try CanonicalURL("http://rebind.test:\(sitePort)/page"))
        #expect(rebound.status == 200)
        #expect(resolver.lookups.withLock { $0["rebind.test"] } == 1)
        #expect(forbidden.connections.load(ordering: .relaxed) == 0, "a forbidden address was connected to")
        await site.stop()
        await forbidden.stop()
    }

    @Test("a pinned name reaches its address on its port only; the address by any other way is refused")
    func pinnedName() async throws {
        let site = CountingSite { _ in Self.ok("<title>Pinned</title>") }
        try await site.start()
        let port = site.port
        let pin = try LinkPin("Pages.Test:\(port):127.0.0.1")
        #expect(pin.host == "pages.test" && pin.address == [127, 0, 0, 1] && pin.description == "pages.test:\(port):127.0.0.1")
        #expect(try LinkPin("v6.test:443:::1").address == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(try LinkPin("v6.test:443:[::1]").description == "v6.test:443:[::1]")
        for bad in [
            "pages.test", "pages.test:0:127.0.0.1", "pages.test:x:127.0.0.1", "10.0.0.1:80:10.0.0.1", "a b:80:127.0.0.1",
            "pages.test:80:pages.test", "pages.test:80:",
        ] {
            #expect(throws: LinkError.self, "\(bad)") { try LinkPin(bad) }
        }
        let fetcher = SafeFetcher.pinning([pin], resolver: FixedResolver(["other.test": [[127, 0, 0, 1]]]))
        let page = try await fetcher.fetch(try CanonicalURL("http://pages.test:\(port)/"))
        #expect(page.status == 200)
        for url in [
            "http://127.0.0.1:\(port)/", "http://other.test:\(port)/", "http://pages.test:\(port == 65535 ? 1 : port + 1)/",
        ] {
            let link = try CanonicalURL(url)
            do {
                _ = try await fetcher.fetch(link)
                Issue.record("\(url) was fetched")
            } catch {
                #expect(error.code == .forbiddenAddress, "\(url): \(error)")
            }
        }
        #expect(site.connections.load(ordering: .relaxed) == 1, "only the pinned name connected")
        await site.stop()
    }

    @Test("the system resolver answers localhost with a loopback address, which the policy refuses")
    func systemResolver() async throws {
        let addresses = try await SystemResolver().addresses(of: "localhost")
        #expect(!addresses.isEmpty)
        #expect(
            addresses.allSatisfy { ($0.count == 4 ? AddressPolicy.refusal(ipv4: $0) : AddressPolicy.refusal(ipv6: $0)) != nil })
        do {
            _ = try await SafeFetcher().fetch(try CanonicalURL("http://localhost:9/"))
            Issue.record("localhost was fetched")
        } catch {
            #expect((error as? FetchError)?.code == .forbiddenAddress)
        }
    }

    @Test("a huge page is cut at the limit; a page that never answers times out")
    func limits() async throws {
        let big = String(repeating: "x", count: 3 << 20)
        let site = CountingSite { path in path == "/big" ? Self.ok(big) : nil }
        try await site.start()
        let port = site.port
        func fetcher(_ limits: SafeFetcher.Limits) -> SafeFetcher {
            SafeFetcher(resolver: FixedResolver([:]), limits: limits) { address, candidate in
                address == [127, 0, 0, 1] && candidate == port ? nil : "not the test site"
            }
        }
        // NB: the huge page with the default timeout: on a loaded machine, reading 1 MiB of it
        // may take longer than the second the slow page is given.
        let cut = try await fetcher(SafeFetcher.Limits()).fetch(try CanonicalURL("http://127.0.0.1:\(port)/big"))
        #expect(cut.truncated && cut.body.count == 1 << 20)
        var limits = SafeFetcher.Limits()
        limits.requestTimeout = .seconds(1)
        let slow = try CanonicalURL("http://127.0.0.1:\(port)/slow")
        do {
            _ = try await fetcher(limits).fetch(slow)
            Issue.record("the slow page answered")
        } catch {
            #expect(error.code == .timedOut)
        }
        await site.stop()
    }
}
