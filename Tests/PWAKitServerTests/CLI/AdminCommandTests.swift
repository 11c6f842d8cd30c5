import Foundation
import Testing

/// `pwakit admin` against a live `pwakit server`, and the server's refusals at start.
@Suite("pwakit admin and server start-up secrets")
struct AdminCommandTests {
    @Test("admin lists and revokes keys and credentials, grants and revokes publishers; failures are one sentence")
    func adminFlow() async throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let keyPath = work.appendingPathComponent("key.json").path
        let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        let publicKey = try #require(
            JSONBody(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)))["publicKey"]?.string)
        let keyId = try #require(JSONBody(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)))["keyId"]?.string)
        let seed = """
            {"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"},
                      {"email":"dev@example.com","password":"dev-password-1"}],
             "apps":[{"id":"demo","name":"Demo","publisherKeys":["\(publicKey)"],
                      "credentials":[{"credentialId":"demo-backend","secret":"demo-backend-secret"}]}]}
            """
        try CommandLineTests.write(seed, to: work.appendingPathComponent("seed.json"))
        let server = try await ServerProcess.start([
            "--data-dir", work.appendingPathComponent("data").path, "--seed", work.appendingPathComponent("seed.json").path,
        ])
        let password = ["PWAKIT_PASSWORD": "admin-password"]
        func admin(_ arguments: [String], trailing: [String] = [], environment: [String: String] = password) async throws
            -> PWAKitBinary.Result
        {
            try await PWAKitBinary.run(
                ["admin"] + arguments + [
                    "--server", server.baseURL.absoluteString, "--email", "admin@example.com", "--app-id", "demo",
                ] + trailing,
                environment: environment)
        }
        do {
            let keys = try await admin(["keys", "list"])
            #expect(keys.status == 0, "\(keys.stderr)")
            #expect(keys.stdout.contains(keyId))
            let revoked = try await admin(["keys", "revoke", keyId])
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(revoked.stdout.contains("revokedAt"))
            #expect(revoked.stdout.contains("\"withdrawnReleases\" : 0"))

            let credentials = try await admin(["credentials", "list"])
            #expect(credentials.stdout.contains("demo-backend"))
            #expect(!credentials.stdout.contains("demo-backend-secret"))
            #expect(try await admin(["credentials", "revoke", "demo-backend"]).status == 0)

            let granted = try await admin(["publishers", "grant", "dev@example.com"])
            #expect(granted.status == 0, "\(granted.stderr)")
            let userId = try #require(
                JSONBody(try JSONSerialization.jsonObject(with: Data(granted.stdout.utf8)))["userId"]?.string)
            #expect(try await admin(["publishers", "list"]).stdout.contains("dev@example.com"))
            // NB: after `--`: a user id may start with `-`, which would otherwise read as an option.
            let revokedPublisher = try await admin(["publishers", "revoke"], trailing: ["--", userId])
            #expect(revokedPublisher.status == 0, "\(revokedPublisher.stderr)")

            // Failures: one `error:` line naming what is wrong, exit 1; never a usage text.
            let unknownKey = try await admin(["keys", "revoke", "ed25519-0000000000000000"])
            #expect(unknownKey.status == 1)
            #expect(unknownKey.stderr.hasPrefix("error: ") && unknownKey.stderr.contains("not_found"))
            let noAccount = try await admin(["publishers", "grant", "ghost@example.com"])
            #expect(noAccount.stderr == "error: email: no account has the email ghost@example.com (not_found)\n")
            let noPassword = try await admin(["keys", "list"], environment: ["PWAKIT_PASSWORD": ""])
            #expect(noPassword.status == 1)
            #expect(noPassword.stderr.contains("PWAKIT_PASSWORD"))
            let wrongPassword = try await admin(["keys", "list"], environment: ["PWAKIT_PASSWORD": "wrong-password"])
            #expect(wrongPassword.stderr.contains("invalid_credentials"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let stopped = try await PWAKitBinary.run(
            ["admin", "keys", "list", "--server", server.baseURL.absoluteString, "--email", "a@example.com", "--app-id", "demo"],
            environment: password)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("cannot be reached"))
        #expect(!stopped.stderr.contains("NSURLErrorDomain"))
    }

    @Test("the server refuses a password on the command line, a key file others may read, and a wrong wrapping key")
    func startRefusals() async throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data").path
        let withPassword = try await PWAKitBinary.run([
            "server", "--port", "0", "--data-dir", data, "--database-url", "postgres://user:secret@127.0.0.1:1/db",
        ])
        #expect(withPassword.status == 1)
        #expect(withPassword.stderr.contains("must not carry a password"))
        #expect(withPassword.stderr.contains("PWAKIT_DATABASE_URL"))
        let badMode = try await PWAKitBinary.run([
            "server", "--port", "0", "--data-dir", data, "--database-url", "postgres://user@127.0.0.1:1/db?sslmode=sometimes",
        ])
        #expect(badMode.stderr.contains("sslmode"))

        // The default key file: created 0600 in the data directory at first start.
        let first = try await ServerProcess.start(["--data-dir", data])
        await first.stop()
        let keyFile = work.appendingPathComponent("data/token-wrapping.key").path
        let mode = try #require(FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        // Another key cannot open the database's signing key.
        let other = work.appendingPathComponent("other.key").path
        try Data((Data(repeating: 3, count: 32).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: other))
        chmod(other, 0o644)
        let readable = try await PWAKitBinary.run(["server", "--port", "0", "--data-dir", data, "--key-file", other])
        #expect(readable.status == 1)
        #expect(readable.stderr.contains("chmod 600"))
        chmod(other, 0o600)
        let wrongKey = try await PWAKitBinary.run(["server", "--port", "0", "--data-dir", data, "--key-file", other])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stderr.contains("does not open"))
    }
}
