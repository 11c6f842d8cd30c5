import Foundation
import Testing

/// Two server processes on one PostgreSQL database share every piece of state.
@Suite("Replicas on one PostgreSQL", .serialized)
struct ReplicaTests {
    @Test("a launch code issued by one replica is redeemed on the other", .enabled(if: StorageEngine.postgresURL != nil))
    func sharedLaunchCode() async throws {
        let databaseURL = try #require(StorageEngine.postgresURL)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-replicas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let suffix = uniqueSuffix()
        let keyPath = work.appendingPathComponent("key.json").path
        try FileManager.default.createDirectory(at: work.appendingPathComponent("site"), withIntermediateDirectories: true)
        let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        let publicKey = try #require(
            JSONBody(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)))["publicKey"]?.string)
        let seed = """
            {"users":[{"email":"admin-\(suffix)@example.com","password":"admin-password","role":"admin"},
                      {"email":"user-\(suffix)@example.com","password":"user-password"}],
             "apps":[{"id":"replica-\(suffix)","name":"Replica","publisherKeys":["\(publicKey)"],
                      "credentials":[{"credentialId":"backend-\(suffix)","secret":"backend-secret-\(suffix)"}]}]}
            """
        try Data(seed.utf8).write(to: work.appendingPathComponent("seed.json"))
        try Data("<h1>replica</h1>".utf8).write(to: work.appendingPathComponent("site/index.html"))
        // NB: both replicas use the same blob directory, as a shared file system would provide.
        // NB: the URL (with its password) from the environment, never the command line; the wrapping key the
        // suites use, since they share the database.
        let shared = ["--data-dir", work.appendingPathComponent("data").path]
        let environment = [
            "PWAKIT_DATABASE_URL": databaseURL,
            "PWAKIT_KEY_WRAPPING_KEY": StorageEngine.testWrappingKey.base64EncodedString(),
        ]
        let first = try await ServerProcess.start(
            shared + ["--seed", work.appendingPathComponent("seed.json").path], environment: environment)
        let second: ServerProcess
        do { second = try await ServerProcess.start(shared, environment: environment) } catch {
            await first.stop()
            throw error
        }
        do {
            let release = work.appendingPathComponent("release.json").path
            _ = try await PWAKitBinary.run([
                "bundle", work.appendingPathComponent("site").path, "--app-id", "replica-\(suffix)", "--version", "1.0.0",
                "--key", keyPath, "--output", release,
            ])
            let published = try await PWAKitBinary.run([
                "publish", work.appendingPathComponent("site").path, "--release", release, "--server",
                first.baseURL.absoluteString,
                "--email", "admin-\(suffix)@example.com", "--password", "admin-password",
            ])
            #expect(published.status == 0, "\(published.stderr)")
            let bundleHash = try #require(
                published.stdout.components(separatedBy: "bundle hash ").last?.trimmingCharacters(in: .whitespacesAndNewlines))

            let (_, login) = try await HTTPProbe.call(
                "POST", first.baseURL.appendingPathComponent("v1/auth/login"),
                json: ["email": "user-\(suffix)@example.com", "password": "user-password"])
            let token = try #require(login["accessToken"]?.string)
            // The access token issued by the first replica is accepted by the second.
            let (meStatus, _) = try await HTTPProbe.call(
                "GET", second.baseURL.appendingPathComponent("v1/me"), headers: ["Authorization": "Bearer \(token)"])
            #expect(meStatus == 200)
            let (codeStatus, issued) = try await HTTPProbe.call(
                "POST", first.baseURL.appendingPathComponent("v1/launch/codes"),
                json: ["appId": "replica-\(suffix)", "bundleHash": bundleHash], headers: ["Authorization": "Bearer \(token)"])
            #expect(codeStatus == 201)
            let code = try #require(issued["code"]?.string)
            let basic = "Basic " + Data("backend-\(suffix):backend-secret-\(suffix)".utf8).base64EncodedString()
            let (exchangeStatus, exchanged) = try await HTTPProbe.call(
                "POST", second.baseURL.appendingPathComponent("v1/launch/exchange"),
                json: ["code": code], headers: ["Authorization": basic])
            #expect(exchangeStatus == 200)
            #expect(exchanged["user"]?["email"]?.string == "user-\(suffix)@example.com")
            let (replayStatus, replay) = try await HTTPProbe.call(
                "POST", first.baseURL.appendingPathComponent("v1/launch/exchange"),
                json: ["code": code], headers: ["Authorization": basic])
            #expect(replayStatus == 400)
            #expect(replay.errorCode == "invalid_launch_code")
        } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }
}
