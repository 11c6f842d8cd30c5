import Crypto
import Foundation
import PWAKitEncoding
import Testing

@testable import PWAKitServer

@Suite("pwakit identity", .serialized)
struct IdentityCommandTests {
    @Test("enrol, status, a wrong and a right PIN, a request approved by number, a QR code read from an image, deregister")
    func walkthrough() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-identity-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let seed = work.appendingPathComponent("seed.json")
        try Data(
            #"""
            {"users":[{"email":"ana@example.com","password":"correct horse battery"}],
             "apps":[{"id":"bank","name":"Bank","credentials":[{"credentialId":"bank-backend","secret":"bank-backend-secret-1"}]}]}
            """#.utf8
        ).write(to: seed)
        let server = try await ServerProcess.start(["--data-dir", work.appendingPathComponent("data").path, "--seed", seed.path])
        do {
            try await Self.walk(server: server, work: work)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func walk(server: ServerProcess, work: URL) async throws {
        let common = ["--server", server.baseURL.absoluteString, "--store", work.appendingPathComponent("store").path]
        func identity(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> PWAKitBinary.Result {
            try await PWAKitBinary.run(["identity"] + arguments + common, environment: environment)
        }
        let weak = try await identity(
            ["enrol", "--email", "ana@example.com", "--pin", "12345"], ["PWAKIT_PASSWORD": "correct horse battery"])
        #expect(weak.status == 1)
        #expect(weak.stderr.contains("sequence"))
        let enrolled = try await identity(
            ["enrol", "--email", "ana@example.com", "--name", "laptop", "--pin", "27491"],
            ["PWAKIT_PASSWORD": "correct horse battery"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("enrolled laptop"))
        let status = try await identity(["status"])
        #expect(status.stdout.contains("PIN attempts left: 3"))
        let wrong = try await identity(["sign-in", "--pin", "11235"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("2 attempts left (wrong_pin)"))
        #expect(try await identity(["sign-in"], ["PWAKIT_PIN": "27491"]).stdout.contains("signed in as ana@example.com"))

        // A backend asks; the device lists the request and approves it with the number.
        let basic = "Basic " + Data("bank-backend:bank-backend-secret-1".utf8).base64EncodedString()
        let (created, transaction) = try await HTTPProbe.call(
            "POST", server.baseURL.appendingPathComponent("v1/identity/transactions"),
            json: ["email": "ana@example.com", "message": "Sign in on Firefox"], headers: ["Authorization": basic])
        #expect(created == 201)
        let id = try #require(transaction["id"]?.string)
        let number = try #require(transaction["number"]?.int)
        #expect(try await identity(["requests"]).stdout.contains("\(id): Sign in on Firefox"))
        let approved = try await identity(["approve", id, "--number", String(number), "--pin", "27491"])
        #expect(approved.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "approved", "\(approved.stderr)")

        // A page's code, as an image: read with zbarimg and approved.
        let page = P256.Signing.PrivateKey()
        let keyHash = Base64URL.encode(SHA256.hash(data: page.publicKey.x963Representation))
        let (_, session) = try await HTTPProbe.call(
            "POST", server.baseURL.appendingPathComponent("v1/identity/qr/sessions"), json: ["keyHash": keyHash])
        let payload = try #require(session["payload"]?.string)
        let image = work.appendingPathComponent("code.pbm")
        try QRCode(Array(payload.utf8)).pbm().write(to: image, atomically: true, encoding: .ascii)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") {
            let scanned = try await identity(["scan", "--image", image.path, "--approve", "--pin", "27491"])
            #expect(scanned.stdout.contains("\(server.baseURL.absoluteString) asks to sign in"), "\(scanned.stderr)")
            #expect(scanned.stdout.contains("approved"))
        } else {
            #expect(try await identity(["scan", payload, "--approve", "--pin", "27491"]).stdout.contains("approved"))
        }
        let garbage = try await identity(["scan", "https://example.com/not-a-code"])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.contains("identity.invalid_code"))

        #expect(try await identity(["deregister"]).stdout.contains("deregistered"))
        #expect(try await identity(["status"]).stdout.contains("not enrolled"))
        let bad = try await PWAKitBinary.run(["identity", "status", "--server", "ftp://x"])
        #expect(bad.status == 64)
        // A mailer needs a public URL: links are never built from request headers.
        let noPublicURL = try await PWAKitBinary.run(["server", "--port", "0", "--smtp-url", "smtp://127.0.0.1:25"])
        #expect(noPublicURL.status == 64)
        #expect(noPublicURL.stderr.contains("--public-url"))
        for url in ["https://id.example.com/path", "https://user@id.example.com", "https://id.example.com#x", "ftp://id"] {
            let refused = try await PWAKitBinary.run(["server", "--port", "0", "--public-url", url])
            #expect(refused.status == 64, "\(url)")
        }
    }

    @Test("showcase: bad flags and a bad tour are refused before a window opens, naming what is wrong")
    func showcaseRefusals() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-showcase-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let common = ["identity", "showcase", "--store", store.path]
        let size = try await PWAKitBinary.run(common + ["--size", "10x10"])
        #expect(size.status == 64 && size.stderr.contains("--size"), "\(size.stderr)")
        let credential = try await PWAKitBinary.run(common + ["--credential", "no-colon"])
        #expect(credential.status == 64 && credential.stderr.contains("--credential"), "\(credential.stderr)")
        let server = try await PWAKitBinary.run(common + ["--server", "ftp://x"])
        #expect(server.status == 64)
        #if WebKitGTK
            let missing = try await PWAKitBinary.run(common + ["--tour", store.appendingPathComponent("none.json").path])
            #expect(missing.status == 2 && missing.stderr.contains("cannot read the file"), "\(missing.stderr)")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            let tour = store.appendingPathComponent("tour.json")
            try Data(##"{"steps": [{"click": "#scan"}, {"copy": {"from": "#number"}}]}"##.utf8).write(to: tour)
            let bad = try await PWAKitBinary.run(common + ["--tour", tour.path])
            #expect(bad.status == 2 && bad.stderr.contains("steps[1].copy"), "\(bad.stderr)")
        #endif
    }
}
