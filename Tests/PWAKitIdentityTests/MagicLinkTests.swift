import Foundation
import PWAKitAPI
import PWAKitIdentity
import PWAKitModules
import PWAKitTesting
import Testing

@testable import PWAKitServer

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a local SMTP server can be run (CI installs python3-aiosmtpd and sets `PWAKIT_TEST_REQUIRE_SMTP=1`).
let smtpAvailable =
    ProcessInfo.processInfo.environment["PWAKIT_TEST_REQUIRE_SMTP"] == "1"
    || (try? Process.run(URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", "import aiosmtpd"]))
        .map { process in
            process.waitUntilExit()
            return process.terminationStatus == 0
        } ?? false

/// A mailer for a server these tests run, `SMTPMailer(url:caFile:)` with a 120 s timeout instead of 20 s:
/// the deadline runs on the event loop's clock while the conversation waits for one of the test
/// process's two cooperative threads, which the suites beside it can hold for many seconds. A CI run
/// saw two conversations end in "I/O on closed channel", each test 83 s long instead of under one; a
/// starved pool (or a slow name lookup in aiosmtpd, below) is the likely cause, not proven. No test
/// here is about the timeout.
func localMailer(_ url: String, caFile: String? = nil) throws -> SMTPMailer {
    var mailer = try SMTPMailer(url: url, caFile: caFile)
    mailer.timeout = .seconds(120)
    return mailer
}

/// A real SMTP server (Python's aiosmtpd, printing what it receives) on a free loopback port.
///
/// NB: aiosmtpd names itself with `socket.getfqdn()` on every connection, a DNS lookup where the
/// machine's host name is not in /etc/hosts that blocks its only thread for as long as the resolver
/// waits; the server is given `localhost` instead.
final class LocalSMTPServer: Sendable {
    let port: Int
    let process: Process
    let output = LineReader()

    /// `arguments` are aiosmtpd's own (`--tlscert`/`--tlskey` for STARTTLS, `--smtpscert`/`--smtpskey` for TLS from the start).
    init(_ arguments: [String] = []) async throws {
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-u", "-c",
                "import socket, sys; socket.getfqdn = lambda name='': 'localhost'; from aiosmtpd.main import main; main(sys.argv[1:])",
                "-n", "-l", "127.0.0.1:\(port)",
            ] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let output = self.output
        out.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while !(Self.accepts(port)) {
            guard ContinuousClock.now < deadline else { throw TestFailure("aiosmtpd did not start on \(port)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    deinit { process.terminate() }

    /// The body of the next message received, decoded.
    func nextMessageBody() async throws -> String {
        _ = try await output.next(prefix: "---------- MESSAGE FOLLOWS ----------")
        var lines: [String] = []
        while true {
            let line = try await output.next(prefix: "")
            if line.hasPrefix("------------ END MESSAGE") { break }
            lines.append(line)
        }
        let blank = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? lines.count
        let encoded = lines[(min(blank + 1, lines.count))...].joined()
        guard let body = Data(base64Encoded: encoded) else { throw TestFailure("the body is not base64: \(encoded.prefix(80))") }
        return String(decoding: body, as: UTF8.self)
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else { throw TestFailure("no free port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}

@Suite("Passwordless sign-in by email with PKCE", .enabled(if: smtpAvailable))
struct MagicLinkTests {
    @Test("the link mailed through a real SMTP server signs in the device that asked, once; the link alone signs in nobody")
    func signIn() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.mailFrom = "sign-in@example.com"
            $0.publicOrigin = "https://id.example.com"
        }) { live in
            let (user, _) = try await live.account()
            let deviceStore: any SecureStore = InMemorySecureStore()
            let device = MagicLinkClient(api: live.api, store: deviceStore)
            try await device.request(email: user.email)
            #expect(try await device.awaitedEmail() == user.email)
            let body = try await smtp.nextMessageBody()
            let link = try #require(body.split(separator: "\n").first { $0.contains("token=") }.map(String.init))
            // The link is built from the configured public URL, never from the request's headers.
            #expect(link.hasPrefix("https://id.example.com/v1/auth/magic-link/open?token="))
            // Another device (or a mail scanner) with the link and no verifier gets nothing.
            let other = MagicLinkClient(api: live.api, store: InMemorySecureStore())
            let stranger = await #expect(throws: IdentityError.self) { try await other.complete(link: link) }
            #expect(stranger?.code == .invalidCode)
            let token = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
            let guessed = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token",
                body: try APIClient.encode(MagicLinkTokenRequest(token: token, codeVerifier: String(repeating: "a", count: 43))),
                idempotent: false)
            #expect(guessed.status == 401)
            #expect(APIClient.error(from: guessed).field == "codeVerifier")
            let kept = try #require(try await deviceStore.value(for: "magic-link", app: "pwakit.identity"))
            let realVerifier = try #require(
                (try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any])?["verifier"] as? String)
            let tokens = try await device.complete(link: link)
            #expect(tokens.user.id == user.id)
            #expect(try await live.api.me(accessToken: tokens.accessToken).id == user.id)
            // Used: the device no longer waits for it, and the server refuses it with any verifier.
            await #expect(throws: IdentityError.self) { try await device.complete(link: link) }
            // NB: with the verifier that worked: a wrong one is refused even for an unused link.
            let replayed = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token",
                body: try APIClient.encode(MagicLinkTokenRequest(token: token, codeVerifier: realVerifier)),
                idempotent: false)
            #expect(replayed.status == 401)
            #expect(APIClient.error(from: replayed).field != "codeVerifier", "refused as used, not for its verifier")
            let page = try await live.api.exchange("GET", "/v1/auth/magic-link/open?token=\(token)")
            #expect(page.status == 200)
            #expect(!String(decoding: page.body, as: UTF8.self).contains(token))
        }
    }

    @Test("an address without an account gets the same answer and no mail; replays and expired links are refused")
    func sameAnswerReplaysExpiry() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.magicLinkBase = "https://app.example.com/auth/magic"
        }) { live in
            let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            let unknown = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: "nobody@example.com", codeChallenge: challenge)),
                idempotent: false)
            let (user, _) = try await live.account()
            let known = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: user.email, codeChallenge: challenge)), idempotent: false)
            #expect(unknown.status == 202)
            #expect(known.status == 202)
            #expect(unknown.body == known.body)
            // Only the account's mail arrives (it is the first message the server receives).
            let body = try await smtp.nextMessageBody()
            #expect(body.contains("Hello"))
            let token = try #require(
                body.split(separator: "\n").first { $0.contains("token=") }
                    .flatMap { URLComponents(string: String($0))?.queryItems?.first { $0.name == "token" }?.value })
            // The RFC 7636 example verifier for that challenge.
            let exchange = MagicLinkTokenRequest(token: token, codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
            #expect(try await live.server.magicLinks.exchange(exchange).user.id == user.id)
            let service = live.server.magicLinks
            let accepted = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var accepted = 0
                        for _ in 0..<1_250 where (try? await service.exchange(exchange)) != nil { accepted += 1 }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(accepted == 0)
            // A link used after its ten minutes is refused.
            _ = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: user.email, codeChallenge: challenge)), idempotent: false)
            let late = try #require(
                try await smtp.nextMessageBody().split(separator: "\n").first { $0.contains("token=") }
                    .flatMap { URLComponents(string: String($0))?.queryItems?.first { $0.name == "token" }?.value })
            live.clock.advance(10 * 60)
            await #expect(throws: APIError.self) {
                try await service.exchange(MagicLinkTokenRequest(token: late, codeVerifier: exchange.codeVerifier))
            }
        }
    }

    @Test(
        "links are limited per address and per client; bad input names its field; without a mailer the answer is 503 for everyone"
    )
    func limitsAndInput() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.magicLinkEmailLimit = 3
            $0.magicLinkAddressLimit = 5
            $0.trustForwardedFor = true
            $0.publicOrigin = "https://id.example.com"
        }) { live in
            let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            func ask(_ email: String, from address: String) async throws -> Int {
                try await live.api.exchange(
                    "POST", "/v1/auth/magic-link",
                    body: try APIClient.encode(MagicLinkRequest(email: email, codeChallenge: challenge)),
                    headers: ["X-Forwarded-For": address], idempotent: false
                ).status
            }
            // Per address: one email asked for four times, from one client.
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await ask("limit@example.com", from: "198.51.100.1")) }
            #expect(statuses == [202, 202, 202, 429])
            // Per client: six different emails from one client, each under its own limit.
            statuses = []
            for index in 0..<6 { statuses.append(try await ask("client\(index)@example.com", from: "198.51.100.2")) }
            #expect(statuses == [202, 202, 202, 202, 202, 429])
            // Another client is not held back by either.
            #expect(try await ask("other@example.com", from: "198.51.100.3") == 202)
            for (body, field) in [
                (#"{"email":"x","codeChallenge":"\#(challenge)","codeChallengeMethod":"S256"}"#, "email"),
                (#"{"email":"a@example.com","codeChallenge":"short","codeChallengeMethod":"S256"}"#, "codeChallenge"),
                (
                    #"{"email":"a@example.com","codeChallenge":"\#(challenge)","codeChallengeMethod":"plain"}"#,
                    "codeChallengeMethod"
                ),
                (#"{"email":"a@example.com"}"#, "codeChallenge"),
            ] {
                let response = try await live.api.exchange(
                    "POST", "/v1/auth/magic-link", body: Data(body.utf8), idempotent: false)
                #expect(response.status == 400)
                #expect(APIClient.error(from: response).field == field)
            }
            let badVerifier = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token", body: Data(#"{"token":"t","codeVerifier":"short"}"#.utf8),
                idempotent: false)
            #expect(APIClient.error(from: badVerifier).field == "codeVerifier")
        }
        // A mailer but no public URL: links would have to be built from request headers, so none is sent.
        try await LiveIdentityServer.run(configure: { $0.mailer = mailer }) { live in
            let response = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(
                    MagicLinkRequest(email: "a@example.com", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")),
                headers: ["Origin": "https://evil.example"], idempotent: false)
            #expect(response.status == 503)
            #expect(response.errorCode == "mail_unavailable")
        }
        try await LiveIdentityServer.run { live in
            let response = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(
                    MagicLinkRequest(email: "a@example.com", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")),
                idempotent: false)
            #expect(response.status == 503)
            #expect(response.errorCode == "mail_unavailable")
        }
    }

    @Test("a link with two tokens is refused, and a kept request that cannot be read is corrupt_store, never 'did not ask'")
    func hostileLinksAndDamagedRequest() async throws {
        // NB: nothing here reaches the server: a port nothing listens on.
        let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, clock: ImmediateClock())
        let store: any SecureStore = InMemorySecureStore()
        let device = MagicLinkClient(api: api, store: store)
        try await store.set(
            #"{"email":"a@example.com","verifier":"v","requestedAt":"2026-01-01T00:00:00Z"}"#, for: "magic-link",
            app: "pwakit.identity")
        for link in ["https://id.example.com/open?token=a&token=b", "https://id.example.com/open?x=1", "not a link?token="] {
            let refused = await #expect(throws: IdentityError.self) { try await device.complete(link: link) }
            #expect(refused?.code == .invalidCode, "\(link)")
            #expect(refused?.field == "link", "\(link)")
        }
        try await store.set("{not json", for: "magic-link", app: "pwakit.identity")
        let damaged = await #expect(throws: IdentityError.self) {
            try await device.complete(link: "https://id.example.com/open?token=abc")
        }
        #expect(damaged?.code == .corruptStore)
        #expect(damaged?.field == "magic-link")
        await #expect(throws: IdentityError.self) { try await device.awaitedEmail() }
        #expect(try await store.value(for: "magic-link", app: "pwakit.identity") == "{not json", "left for a new request")
    }

    @Test("the SMTP client refuses addresses that could inject commands, and names an unusable URL")
    func smtpInput() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        for address in [
            "a@b.c>\r\nRCPT TO:<x@y.z", "no-at-sign", "a b@c.d", "@c.d", String(repeating: "a", count: 250) + "@b.cd",
        ] {
            await #expect(throws: MailError.self) {
                try await mailer.send(MailMessage(from: "s@example.com", to: address, subject: "s", text: "t"))
            }
        }
        for url in ["http://host", "smtp://", "smtp://user:pw@host:25", "not a url"] {
            #expect(throws: MailError.self) { try SMTPMailer(url: url) }
        }
        try await mailer.send(
            MailMessage(from: "s@example.com", to: "r@example.com", subject: "Grüße\r\nBcc: x@y.z", text: ".\r\n.leading dot"))
        #expect(try await smtp.nextMessageBody() == ".\r\n.leading dot")
        let refused = await #expect(throws: MailError.self) {
            try await localMailer("smtp://127.0.0.1:\(try LocalSMTPServer.freePort())").send(
                MailMessage(from: "s@example.com", to: "r@example.com", subject: "s", text: "t"))
        }
        #expect(refused?.isTransient == true)
    }
}

/// A self-signed certificate for `localhost` and 127.0.0.1, made with openssl in a scratch folder.
struct TestCertificate {
    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl could not make a certificate") }
    }
}

@Suite("SMTP over TLS: STARTTLS and TLS from the start, against a real server", .enabled(if: smtpAvailable))
struct SMTPTLSTests {
    static let message = MailMessage(from: "s@example.com", to: "r@example.com", subject: "Sign in", text: "over TLS")

    @Test("smtp+starttls upgrades before anything else and delivers; smtps delivers; both check the certificate")
    func delivers() async throws {
        let certificate = try TestCertificate()
        defer { try? FileManager.default.removeItem(at: certificate.directory) }
        let startTLS = try await LocalSMTPServer(["--tlscert", certificate.certificate, "--tlskey", certificate.key])
        for host in ["127.0.0.1", "localhost"] {
            let mailer = try localMailer("smtp+starttls://\(host):\(startTLS.port)", caFile: certificate.certificate)
            #expect(mailer.security == .startTLS)
            try await mailer.send(Self.message)
            #expect(try await startTLS.nextMessageBody() == "over TLS")
        }
        // aiosmtpd refuses MAIL before STARTTLS here, so a delivery proves the upgrade happened.
        await #expect(throws: MailError.self) {
            try await localMailer("smtp://127.0.0.1:\(startTLS.port)").send(Self.message)
        }
        let implicit = try await LocalSMTPServer(["--smtpscert", certificate.certificate, "--smtpskey", certificate.key])
        try await localMailer("smtps://127.0.0.1:\(implicit.port)", caFile: certificate.certificate).send(Self.message)
        #expect(try await implicit.nextMessageBody() == "over TLS")

        // A certificate that does not chain to the trusted roots: nothing is sent.
        let other = try TestCertificate()
        defer { try? FileManager.default.removeItem(at: other.directory) }
        await #expect(throws: MailError.self) {
            try await localMailer("smtp+starttls://127.0.0.1:\(startTLS.port)", caFile: other.certificate).send(Self.message)
        }
        await #expect(throws: MailError.self) {
            try await localMailer("smtps://127.0.0.1:\(implicit.port)", caFile: other.certificate).send(Self.message)
        }
        // Nor with the system's roots, which do not hold this self-signed one.
        await #expect(throws: MailError.self) {
            try await localMailer("smtp+starttls://127.0.0.1:\(startTLS.port)").send(Self.message)
        }
    }

    @Test("a server that does not offer STARTTLS gets nothing, not a message in the clear")
    func refusesWithoutStartTLS() async throws {
        let plain = try await LocalSMTPServer()
        let error = await #expect(throws: MailError.self) {
            try await localMailer("smtp+starttls://127.0.0.1:\(plain.port)").send(Self.message)
        }
        #expect(error?.message.contains("does not offer STARTTLS") == true)
        #expect(error?.isTransient == false)
        // The server saw no message: the next one it prints is the one sent in the clear now.
        try await localMailer("smtp://127.0.0.1:\(plain.port)").send(
            MailMessage(from: "s@example.com", to: "r@example.com", subject: "s", text: "in the clear"))
        #expect(try await plain.nextMessageBody() == "in the clear")
    }

    @Test("replies injected in the clear after the server agreed to STARTTLS are refused, not read as if over TLS")
    func injectionAfterStartTLS() async throws {
        // NB: a server (or whoever sits between) that answers STARTTLS and, in the same segment,
        // every later reply in the clear.
        let script = """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
            print(s.getsockname()[1], flush=True)
            c, _ = s.accept(); f = c.makefile("rb")
            c.sendall(b"220 hi\\r\\n"); f.readline()
            c.sendall(b"250-hi\\r\\n250 STARTTLS\\r\\n"); f.readline()
            c.sendall(b"220 go\\r\\n250 ok\\r\\n250 ok\\r\\n250 ok\\r\\n354 go\\r\\n250 queued\\r\\n")
            time.sleep(300)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", "-c", script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { process.terminate() }
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        let error = await #expect(throws: MailError.self) {
            // NB: the refusal comes at once; the server waits longer than the timeout, so a machine
            // busy with other tests cannot turn it into a timeout or a closed connection instead.
            let mailer = try localMailer("smtp+starttls://127.0.0.1:\(port)")
            try await mailer.send(Self.message)
        }
        #expect(error?.message.contains("in the clear") == true, "\(String(describing: error))")
    }

    @Test("URLs and CA files: credentials only over TLS, an unreadable CA file is named")
    func configuration() throws {
        #expect(try SMTPMailer(url: "smtp+starttls://user:pw@mail.example.com").port == 587)
        #expect(try SMTPMailer(url: "smtps://mail.example.com").port == 465)
        #expect(throws: MailError.self) { try SMTPMailer(url: "smtp://user:pw@mail.example.com") }
        let error = #expect(throws: MailError.self) {
            try SMTPMailer(url: "smtps://mail.example.com", caFile: "/nonexistent/ca.pem")
        }
        #expect(error?.message.contains("--smtp-ca-file") == true)
        #expect(SMTPMailer.isAddressLiteral("127.0.0.1") && SMTPMailer.isAddressLiteral("[::1]"))
        #expect(!SMTPMailer.isAddressLiteral("mail.example.com"))
    }
}
