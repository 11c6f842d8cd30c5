import Foundation
import Testing

@testable import PWAKitServer

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
