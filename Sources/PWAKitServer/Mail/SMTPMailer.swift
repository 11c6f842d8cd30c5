import Foundation
import NIOCore
import NIOPosix
public import NIOSSL
import Synchronization

/// Sends mail to an SMTP server (RFC 5321): `smtp://host[:25]` in the clear,
/// `smtps://[user:password@]host[:465]` over TLS from the first byte, or
/// `smtp+starttls://[user:password@]host[:587]`, which upgrades to TLS with STARTTLS (RFC 3207)
/// before anything else and refuses a server that does not offer it. Credentials are sent (AUTH
/// PLAIN) only over TLS; the server's certificate is checked against the system's roots, or
/// ``trustRoots``, and its name.
public struct SMTPMailer: MailSender {
    /// How the connection is protected.
    public enum Security: String, Sendable {
        /// In the clear (`smtp://`).
        case none
        /// TLS from the first byte (`smtps://`).
        case implicitTLS
        /// Upgraded with STARTTLS before any other command (`smtp+starttls://`).
        case startTLS
    }

    /// Where the server is.
    public let host: String
    /// Its port.
    public let port: Int
    /// How the connection is protected.
    public let security: Security
    /// Whether the connection is TLS from the start.
    public var implicitTLS: Bool { security == .implicitTLS }
    /// The certificates a server's must chain to (`pwakit server --smtp-ca-file`); nil: the system's.
    public var trustRoots: NIOSSLTrustRoots?
    /// AUTH PLAIN credentials.
    let credentials: (username: String, password: String)?
    /// The name this host gives in EHLO.
    public var heloName = "pwakit"
    /// The longest one message may take, connection included.
    public var timeout: Duration = .seconds(20)

    /// A mailer for an `smtp://`, `smtps://` or `smtp+starttls://` URL, trusting the certificates
    /// in `caFile` (PEM) instead of the system's when given; the error names what is wrong.
    public init(url text: String, caFile: String? = nil) throws {
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw MailError(code: nil, "--smtp-ca-file: cannot read \(caFile)", isTransient: false)
            }
            trustRoots = .file(caFile)
        }
        let schemes: [String: (Security, Int)] = [
            "smtp": (.none, 25), "smtps": (.implicitTLS, 465), "smtp+starttls": (.startTLS, 587),
        ]
        guard let url = URL(string: text), let scheme = url.scheme, let (security, defaultPort) = schemes[scheme],
            let host = url.host, !host.isEmpty
        else {
            throw MailError(
                code: nil,
                "--smtp-url must look like smtp://host:25, smtps://user:password@host:465 or smtp+starttls://user:password@host:587",
                isTransient: false)
        }
        self.host = host
        self.security = security
        port = url.port ?? defaultPort
        if let user = url.user?.removingPercentEncoding {
            guard security != .none else {
                throw MailError(
                    code: nil, "--smtp-url: credentials are only sent over TLS (smtps:// or smtp+starttls://)",
                    isTransient: false)
            }
            credentials = (user, url.password?.removingPercentEncoding ?? "")
        } else {
            credentials = nil
        }
    }

    /// See ``MailSender``.
    public func send(_ message: MailMessage) async throws {
        for address in [message.from, message.to] where !Self.isPlainAddress(address) {
            throw MailError(code: nil, "\(address.prefix(80)) is not an address this mailer sends to", isTransient: false)
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let trustRoots { configuration.trustRoots = trustRoots }
        let tls: NIOSSLContext?
        do { tls = security == .none ? nil : try NIOSSLContext(configuration: configuration) } catch {
            throw MailError(code: nil, "the TLS settings cannot be used (the CA file?): \(error)", isTransient: false)
        }
        let gate = StartTLSGate()
        // NB: an address is not a name to send in SNI; the certificate is then checked against the address.
        let serverName: String? = Self.isAddressLiteral(host) ? nil : host
        let security = self.security
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if security == .implicitTLS, let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder(gate: gate)))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw MailError(code: nil, "cannot connect to \(host):\(port): \(error)", isTransient: true)
        }
        // NB: closing the channel at the deadline ends the conversation below with an error.
        let deadline = channel.channel.eventLoop.scheduleTask(in: .seconds(Int64(timeout.components.seconds))) {
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            try await channel.executeThenClose { inbound, outbound in
                var lines = inbound.makeAsyncIterator()
                @discardableResult
                func reply(expecting expected: ClosedRange<Int>) async throws -> [String] {
                    var text: [String] = []
                    while true {
                        guard let line = try await lines.next() else {
                            throw MailError(code: nil, "the server closed the connection", isTransient: true)
                        }
                        let string = String(buffer: line)
                        text.append(String(string.dropFirst(4)))
                        guard string.utf8.count >= 4, let code = Int(string.prefix(3)) else {
                            throw MailError(code: nil, "the server answered something that is not SMTP", isTransient: false)
                        }
                        if string.dropFirst(3).first == "-" { continue }
                        guard expected.contains(code) else {
                            throw MailError(code: code, text.joined(separator: " "), isTransient: (400..<500).contains(code))
                        }
                        return text
                    }
                }
                @discardableResult
                func command(_ text: String, expecting expected: ClosedRange<Int>) async throws -> [String] {
                    try await outbound.write(ByteBuffer(string: text + "\r\n"))
                    return try await reply(expecting: expected)
                }
                try await reply(expecting: 220...220)
                let features = try await command("EHLO \(heloName)", expecting: 250...250)
                if security == .startTLS, let tls {
                    guard features.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                        // NB: never on in the clear: a server (or whoever sits between) that hides STARTTLS gets nothing.
                        throw MailError(
                            code: nil, "\(host):\(port) does not offer STARTTLS; nothing was sent", isTransient: false)
                    }
                    // NB: any byte after the server's 220 that is not TLS is refused (RFC 3207: a reply
                    // injected in the clear must not be read as if it came over TLS).
                    gate.arm()
                    try await command("STARTTLS", expecting: 220...220)
                    // NB: made and added on the channel's event loop, ahead of the line decoder.
                    let raw = channel.channel
                    try await raw.eventLoop.submit {
                        try raw.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: serverName), position: .first)
                        gate.open()
                    }.get()
                    // NB: what the server said before TLS is forgotten (RFC 3207): ask again over TLS.
                    try await command("EHLO \(heloName)", expecting: 250...250)
                }
                if let credentials {
                    let token = Data("\0\(credentials.username)\0\(credentials.password)".utf8).base64EncodedString()
                    try await command("AUTH PLAIN \(token)", expecting: 235...235)
                }
                try await command("MAIL FROM:<\(message.from)>", expecting: 250...250)
                try await command("RCPT TO:<\(message.to)>", expecting: 250...251)
                try await command("DATA", expecting: 354...354)
                try await outbound.write(ByteBuffer(string: Self.render(message, host: heloName)))
                try await reply(expecting: 250...250)
                _ = try? await command("QUIT", expecting: 221...221)
            }
        } catch let error as MailError {
            throw error
        } catch let error as NIOSSLError {
            // NB: a certificate that does not verify will not verify on the next attempt either.
            throw MailError(code: nil, "TLS with \(host):\(port) failed: \(error)", isTransient: false)
        } catch {
            throw MailError(code: nil, "the conversation with \(host):\(port) failed: \(error)", isTransient: true)
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// Whether an address is printable ASCII with one `@` and no brackets, spaces or line breaks.
    public static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return address.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && address.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
    }

    /// The message as DATA sends it: headers, a base64 body in 76-character lines, the final dot.
    static func render(_ message: MailMessage, host: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let subject = message.subject.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        let encodedSubject =
            subject.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
            ? subject : "=?UTF-8?B?\(Data(subject.utf8).base64EncodedString())?="
        let body = Data(message.text.utf8).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        let headers = [
            "From: <\(message.from)>", "To: <\(message.to)>", "Subject: \(encodedSubject)",
            "Date: \(formatter.string(from: date))", "Message-ID: <\(UUID().uuidString.lowercased())@\(host)>",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64",
        ]
        // NB: base64 lines never start with a dot, so no line needs dot-stuffing.
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n.\r\n"
    }
}

/// Guards the switch to TLS: armed before `STARTTLS` is sent, it shuts once the server's final
/// 220 line is read, and opens again when TLS is in place; while shut, any byte is an error.
final class StartTLSGate: Sendable {
    private enum Phase { case idle, armed, shut }
    private let phase = Mutex(Phase.idle)
    func arm() { phase.withLock { $0 = .armed } }
    func open() { phase.withLock { $0 = .idle } }
    /// Called for each line read: whether the line shuts the gate.
    func read(_ line: ByteBuffer) {
        phase.withLock { phase in
            if phase == .armed, line.readableBytesView.starts(with: Array("220 ".utf8)) { phase = .shut }
        }
    }
    var isShut: Bool { phase.withLock { $0 == .shut } }
}

/// Splits SMTP replies into lines (CRLF or LF), refusing a line longer than 4 KiB.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    let gate: StartTLSGate

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if gate.isShut, buffer.readableBytes > 0 {
            throw MailError(code: nil, "the server sent bytes in the clear after agreeing to STARTTLS", isTransient: false)
        }
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 4096 { throw MailError(code: nil, "an SMTP reply line is too long", isTransient: false) }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") {
            line = line.getSlice(at: line.readerIndex, length: line.readableBytes - 1)!
        }
        gate.read(line)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
