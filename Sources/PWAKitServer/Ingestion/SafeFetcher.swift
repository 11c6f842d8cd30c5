import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
public import NIOSSL
public import PWAKitLinks

/// Resolves host names for ``SafeFetcher``: every address of a name, IPv4 (4 bytes) and IPv6 (16).
public protocol HostResolver: Sendable {
    /// The addresses `host` resolves to; empty or a thrown error when it does not resolve.
    func addresses(of host: String) async throws -> [[UInt8]]
}

/// The system resolver (`getaddrinfo`), run on threads of its own: a slow name server never
/// holds up the threads the database work runs on.
public struct SystemResolver: HostResolver {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// Creates the resolver.
    public init() {}

    /// See ``HostResolver``.
    public func addresses(of host: String) async throws -> [[UInt8]] {
        try await Self.pool.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
            defer { freeaddrinfo(first) }
            var addresses: [[UInt8]] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                if current.pointee.ai_family == AF_INET, let raw = current.pointee.ai_addr {
                    raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                        var value = address.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                } else if current.pointee.ai_family == AF_INET6, let raw = current.pointee.ai_addr {
                    raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        var value = address.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                }
                entry = current.pointee.ai_next
            }
            var seen: Set<[UInt8]> = []
            return addresses.filter { seen.insert($0).inserted }
        }
    }
}

/// Fetches shared links from the server without letting a link reach what it must not: every
/// address is checked before the connection (all of a name's addresses, so a name that also
/// answers with a private address is refused), the connection goes to the checked address (no
/// second resolution for a rebinding answer to exploit), every redirect is checked again (at most
/// three), only `http` and `https`, no credentials (``CanonicalURL`` refuses them), the body is cut
/// at a size and the whole fetch at a time.
public struct SafeFetcher: Sendable {
    /// How much and how long.
    public struct Limits: Sendable {
        /// Bytes of body kept; the rest is not read (``Response/truncated``).
        public var maximumBytes = 1 << 20
        /// The longest a connection may take to open.
        public var connectTimeout: Duration = .seconds(5)
        /// The longest one request may take, connection included.
        public var requestTimeout: Duration = .seconds(30)
        /// Redirects followed.
        public var maximumRedirects = 3

        /// The defaults: 1 MiB, 5 s to connect, 30 s per request, 3 redirects.
        public init() {}
    }

    /// What came back.
    public struct Response: Sendable {
        /// The URL that answered (after redirects).
        public var url: CanonicalURL
        /// The HTTP status.
        public var status: Int
        /// The `Content-Type` header.
        public var contentType: String?
        /// The body, at most ``Limits/maximumBytes``.
        public var body: [UInt8]
        /// Whether the body was cut at the limit.
        public var truncated: Bool
    }

    /// Why an address may not be reached, or nil: the address policy by default.
    public typealias AddressCheck = @Sendable (_ address: [UInt8], _ port: Int) -> String?

    let resolver: any HostResolver
    let check: AddressCheck
    let limits: Limits
    let userAgent: String
    let tls: NIOSSLContext?
    /// Names pinned to an address and port (``pinning(_:resolver:limits:)``).
    var pins: [String: LinkPin] = [:]

    /// A fetcher; `check` is ``AddressPolicy`` unless a test narrows it; `tls` is the client
    /// configuration of `https` fetches (the system's trust roots, the name checked against the certificate).
    public init(
        resolver: any HostResolver = SystemResolver(), limits: Limits = Limits(),
        userAgent: String = "PWAKit-LinkPreview/1.0 (+https://pwakit.dev)",
        tls: TLSConfiguration = .makeClientConfiguration(),
        check: @escaping AddressCheck = { address, _ in
            address.count == 4 ? AddressPolicy.refusal(ipv4: address) : AddressPolicy.refusal(ipv6: address)
        }
    ) {
        self.resolver = resolver
        self.check = check
        self.limits = limits
        self.userAgent = userAgent
        self.tls = try? NIOSSLContext(configuration: tls)
    }

    /// Fetches `url`, following redirects under the same checks.
    public func fetch(_ url: CanonicalURL, accept: String = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
        async throws(FetchError) -> Response
    {
        var current = url
        var redirects = 0
        while true {
            let address = try await checkedAddress(current)
            let response = try await request(current, address: address, accept: accept)
            guard [301, 302, 303, 307, 308].contains(Int(response.status.code)) else {
                return Response(
                    url: current, status: Int(response.status.code), contentType: response.contentType, body: response.body,
                    truncated: response.truncated)
            }
            redirects += 1
            guard redirects <= limits.maximumRedirects else {
                throw FetchError(.tooManyRedirects, "more than \(limits.maximumRedirects) redirects from \(url)")
            }
            guard let location = response.location else {
                throw FetchError(.tooManyRedirects, "a redirect from \(current) without a Location")
            }
            do {
                current = try current.resolving(location, rules: .none)
            } catch {
                throw FetchError(.badRedirect, "\(current) redirects to what cannot be fetched: \(error.message)")
            }
        }
    }

    /// The address to connect to for `url`: a literal, or the first address of the name when
    /// every address of it is allowed.
    func checkedAddress(_ url: CanonicalURL) async throws(FetchError) -> [UInt8] {
        let port = url.effectivePort
        let addresses: [[UInt8]]
        switch url.host {
        case .ipv4(let bytes), .ipv6(let bytes): addresses = [bytes]
        case .name(let name):
            if let pin = pins[name] {
                guard pin.port == port else {
                    throw FetchError(.forbiddenAddress, "\(name) is pinned to port \(pin.port) only, not \(port)")
                }
                return pin.address
            }
            do {
                addresses = try await resolver.addresses(of: name)
            } catch {
                throw FetchError(.unresolvable, "\(name) does not resolve: \(error)")
            }
            guard !addresses.isEmpty else { throw FetchError(.unresolvable, "\(name) does not resolve") }
        }
        for address in addresses {
            if let reason = check(address, port) {
                throw FetchError(.forbiddenAddress, "\(url.host) is (or resolves to) an address that is not public: \(reason)")
            }
        }
        return addresses[0]
    }

    struct RawResponse {
        var status: HTTPResponseStatus
        var contentType: String?
        var location: String?
        var body: [UInt8]
        var truncated: Bool
    }

    /// One request to `address`, the TLS name and `Host` header from `url`.
    func request(_ url: CanonicalURL, address: [UInt8], accept: String) async throws(FetchError) -> RawResponse {
        let text = address.count == 4 ? address.map(String.init).joined(separator: ".") : URLHost.ipv6(address).bare
        let socket: SocketAddress
        do {
            socket = try SocketAddress(ipAddress: text, port: url.effectivePort)
        } catch {
            throw FetchError(.connectionFailed, "\(text) is not a socket address")
        }
        let https = url.scheme == "https"
        if https, tls == nil { throw FetchError(.connectionFailed, "TLS is not available") }
        let serverName: String? = if case .name(let name) = url.host { name } else { nil }
        let tls = self.tls
        let limit = limits.maximumBytes
        let collector = ResponseCollector(limit: limit)
        let group = MultiThreadedEventLoopGroup.singleton
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(Int64(limits.connectTimeout.components.seconds) * 1_000_000_000))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if https, let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(to: socket).get()
        } catch ChannelError.connectTimeout {
            throw FetchError(.timedOut, "connecting to \(url.host) took too long")
        } catch {
            throw FetchError(.connectionFailed, "cannot connect to \(url.host): \(error)")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(url.host)\(url.port.map { ":\($0)" } ?? "")")
        headers.add(name: "User-Agent", value: userAgent)
        headers.add(name: "Accept", value: accept)
        headers.add(name: "Accept-Encoding", value: "identity")
        headers.add(name: "Connection", value: "close")
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let timeout = channel.eventLoop.scheduleTask(
            in: .nanoseconds(Int64(limits.requestTimeout.components.seconds) * 1_000_000_000)
        ) {
            collector.fail(FetchError(.timedOut, "\(url) took longer than \(limits.requestTimeout)"), channel: channel)
        }
        defer { timeout.cancel() }
        do {
            let result = try await collector.result.get()
            channel.close(promise: nil)
            return result
        } catch let error as FetchError {
            channel.close(promise: nil)
            throw error
        } catch {
            channel.close(promise: nil)
            throw FetchError(.connectionFailed, "\(url): \(error)")
        }
    }
}

/// Collects one HTTP/1 response: its head and at most `limit` bytes of body.
final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    // NB: every method runs on the channel's event loop; `result` is the only thing read elsewhere.
    typealias InboundIn = HTTPClientResponsePart

    private let limit: Int
    private let promise: EventLoopPromise<SafeFetcher.RawResponse>
    private var response: SafeFetcher.RawResponse?
    private var done = false

    init(limit: Int) {
        self.limit = limit
        self.promise = MultiThreadedEventLoopGroup.singleton.next().makePromise()
    }

    var result: EventLoopFuture<SafeFetcher.RawResponse> { promise.futureResult }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            response = SafeFetcher.RawResponse(
                status: head.status, contentType: head.headers.first(name: "Content-Type"),
                location: head.headers.first(name: "Location"), body: [], truncated: false)
        case .body(let buffer):
            guard var current = response else { return }
            let room = limit - current.body.count
            if buffer.readableBytes > room {
                current.body += buffer.readableBytesView.prefix(room)
                current.truncated = true
                response = current
                finish(context: context)
            } else {
                current.body += buffer.readableBytesView
                response = current
            }
        case .end:
            finish(context: context)
        }
    }

    private func finish(context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        if let response { promise.succeed(response) } else { promise.fail(FetchError(.badResponse, "no response head")) }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done {
            done = true
            promise.fail(FetchError(.connectionFailed, "the connection closed before the response ended"))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !done {
            done = true
            promise.fail(
                error is HTTPParserError
                    ? FetchError(.badResponse, "not an HTTP/1 response: \(error)")
                    : FetchError(.connectionFailed, "\(error)"))
        }
        context.close(promise: nil)
    }

    /// Fails the fetch from outside the pipeline (the request's timeout).
    func fail(_ error: FetchError, channel: any Channel) {
        channel.eventLoop.execute {
            if !self.done {
                self.done = true
                self.promise.fail(error)
            }
            channel.close(promise: nil)
        }
    }
}
