import Foundation
import PWAKitBundles
import PWAKitCore
import Testing

/// The real binary: keys, bundle and publish against a live `pwakit server` process.
@Suite("pwakit binary", .serialized)
struct CommandLineTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test("keys generate, bundle, publish uploads only missing blobs, errors exit non-zero")
    func publishFlow() async throws {
        let work = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let keyPath = work.appendingPathComponent("key.json").path
        let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        #expect(generated.status == 0, "\(generated.stderr)")
        let summary = JSONBody(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)))
        let publicKey = try #require(summary["publicKey"]?.string)
        let again = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        #expect(again.status != 0)
        #expect(again.stderr.contains("--force"))
        let permissions = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)

        let site = work.appendingPathComponent("site")
        try Self.write("<h1>v1</h1>", to: site.appendingPathComponent("index.html"))
        try Self.write("console.log('shared')", to: site.appendingPathComponent("js/app.js"))
        let seed = """
            {"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"}],
             "apps":[{"id":"demo","name":"Demo","publisherKeys":["\(publicKey)"]}]}
            """
        try Self.write(seed, to: work.appendingPathComponent("seed.json"))
        let server = try await ServerProcess.start([
            "--data-dir", work.appendingPathComponent("data").path, "--seed", work.appendingPathComponent("seed.json").path,
        ])
        do {
            let release1 = work.appendingPathComponent("release1.json").path
            let bundled = try await PWAKitBinary.run([
                "bundle", site.path, "--app-id", "demo", "--version", "1.0.0", "--key", keyPath, "--output", release1,
            ])
            #expect(bundled.status == 0, "\(bundled.stderr)")
            #expect(bundled.stdout.contains("bundled 2 files"))

            let publishArguments = ["--server", server.baseURL.absoluteString, "--email", "admin@example.com"]
            let first = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release1] + publishArguments,
                environment: ["PWAKIT_PASSWORD": "admin-password"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("2 missing on the server"))
            // Standard error is a pipe here: one summary line, no carriage-return bar.
            #expect(first.stderr.contains("uploaded 2/2 blobs"))
            #expect(!first.stderr.contains("\r"))
            #expect(first.stdout.contains("published demo 1.0.0 on stable"))

            try Self.write("<h1>v2</h1>", to: site.appendingPathComponent("index.html"))
            let release2 = work.appendingPathComponent("release2.json").path
            _ = try await PWAKitBinary.run([
                "bundle", site.path, "--app-id", "demo", "--version", "1.1.0", "--key", keyPath, "--output", release2,
            ])
            let second = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release2, "--password", "admin-password"] + publishArguments)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stderr.contains("1 missing on the server"))

            // NB: publish re-hashes every file against the release first, so the directory must hold release 1's files.
            try Self.write("<h1>v1</h1>", to: site.appendingPathComponent("index.html"))
            let rollback = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release1, "--password", "admin-password"] + publishArguments)
            #expect(rollback.status != 0)
            #expect(rollback.stderr.contains("version_not_newer"))
            // An older version with a new file: refused before anything is uploaded.
            try Self.write("<h1>v0.9</h1>", to: site.appendingPathComponent("index.html"))
            let older = work.appendingPathComponent("release09.json").path
            _ = try await PWAKitBinary.run([
                "bundle", site.path, "--app-id", "demo", "--version", "0.9.0", "--key", keyPath, "--output", older,
            ])
            let refused = try await PWAKitBinary.run(
                ["publish", site.path, "--release", older, "--password", "admin-password"] + publishArguments)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("version_not_newer"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("uploaded"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("missing on the server"), "\(refused.stderr)")
            try Self.write("<h1>v2</h1>", to: site.appendingPathComponent("index.html"))

            // A release signed by a key the server does not trust is refused.
            let strangerKey = work.appendingPathComponent("stranger.json").path
            _ = try await PWAKitBinary.run(["keys", "generate", "--output", strangerKey])
            let release3 = work.appendingPathComponent("release3.json").path
            _ = try await PWAKitBinary.run([
                "bundle", site.path, "--app-id", "demo", "--version", "2.0.0", "--key", strangerKey, "--output", release3,
            ])
            let untrusted = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release3, "--password", "admin-password"] + publishArguments)
            #expect(untrusted.status != 0)
            #expect(untrusted.stderr.contains("bad_signature"))

            // Files changed after bundling are caught before upload.
            try Self.write("<h1>edited</h1>", to: site.appendingPathComponent("index.html"))
            let stale = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release3, "--password", "admin-password"] + publishArguments)
            #expect(stale.status != 0)
            #expect(stale.stderr.contains("index.html changed since it was bundled"))
            try Self.write("<h1>v2</h1>", to: site.appendingPathComponent("index.html"))

            let wrongPassword = try await PWAKitBinary.run(
                ["publish", site.path, "--release", release2, "--password", "nope"] + publishArguments)
            #expect(wrongPassword.status != 0)
            #expect(wrongPassword.stderr.contains("invalid_credentials"))

            let (_, login) = try await HTTPProbe.call(
                "POST", server.baseURL.appendingPathComponent("v1/auth/login"),
                json: ["email": "admin@example.com", "password": "admin-password"])
            let token = try #require(login["accessToken"]?.string)
            let (status, latest) = try await HTTPProbe.call(
                "GET", URL(string: "v1/apps/demo/releases/latest", relativeTo: server.baseURL)!,
                headers: ["Authorization": "Bearer \(token)"])
            #expect(status == 200)
            let manifest = try ManifestCoding.decode(Data(base64Encoded: latest["release"]?["manifest"]?.string ?? "") ?? Data())
            #expect(manifest.version == "1.1.0")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("the data directory is 0700 and the database 0600, also when they existed with looser permissions")
    func ownerOnlyDataDirectory() async throws {
        let work = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1) & 0o777
        }
        let first = try await ServerProcess.start(["--data-dir", data.path])
        #expect(try mode(data) == 0o700)
        #expect(try mode(data.appendingPathComponent("pwakit.sqlite")) == 0o600)
        await first.stop()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: data.appendingPathComponent("pwakit.sqlite").path)
        let second = try await ServerProcess.start(["--data-dir", data.path])
        #expect(try mode(data) == 0o700)
        #expect(try mode(data.appendingPathComponent("pwakit.sqlite")) == 0o600)
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) {
            let url = data.appendingPathComponent(name)
            #expect(try mode(url) & 0o077 == 0, "\(name) is readable by others")
        }
        await second.stop()
    }

    @Test("bad arguments exit non-zero naming the problem")
    func badArguments() async throws {
        let work = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let keyPath = work.appendingPathComponent("key.json").path
        _ = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        try Self.write("x", to: work.appendingPathComponent("site/index.html"))
        let badVersion = try await PWAKitBinary.run([
            "bundle", work.appendingPathComponent("site").path, "--app-id", "demo", "--version", "v1", "--key", keyPath,
            "--output", work.appendingPathComponent("r.json").path,
        ])
        #expect(badVersion.status != 0)
        #expect(badVersion.stderr.contains("version"))
        let noPassword = try await PWAKitBinary.run(
            ["publish", work.path, "--release", "r.json", "--server", "http://127.0.0.1:9", "--email", "a@example.com"],
            environment: ["PWAKIT_PASSWORD": ""])
        #expect(noPassword.status == 1)
        #expect(noPassword.stderr.hasPrefix("error: no password: set PWAKIT_PASSWORD"))
        #expect(!noPassword.stderr.contains("Usage"))
        let badPort = try await PWAKitBinary.run(["server", "--port", "70000"])
        #expect(badPort.status != 0)
        #expect(badPort.stderr.contains("--port"))
        for (contents, problem) in [
            ("[1, 2]", "is not a JSON object"), ("{\"a\": ", "is not a JSON object"),
            ("{\"a\": \"" + String(repeating: "x", count: 128 * 1024) + "\"}", "larger than 128 KiB"),
        ] {
            let file = work.appendingPathComponent("aasa.json")
            try Self.write(contents, to: file)
            let refused = try await PWAKitBinary.run([
                "server", "--port", "0", "--data-dir", work.appendingPathComponent("aasa-data").path,
                "--apple-app-site-association", file.path,
            ])
            #expect(refused.status != 0)
            #expect(
                refused.stderr.contains("--apple-app-site-association") && refused.stderr.contains(problem), "\(refused.stderr)")
        }
        let badSeed = work.appendingPathComponent("seed.json")
        try Self.write(
            #"{"users":[{"email":"not-an-email","password":"long enough"},{"email":"b@example.com","password":"short","role":"root"}],"apps":[{"id":"Bad App","name":"","entryPath":"../x","channels":["Not A Channel"],"publisherKeys":["nope"],"credentials":[{"credentialId":"c","secret":"tiny"}]}]}"#,
            to: badSeed)
        let seeded = try await PWAKitBinary.run([
            "server", "--port", "0", "--data-dir", work.appendingPathComponent("d").path, "--seed", badSeed.path,
        ])
        #expect(seeded.status == 1)
        // Every problem at once, each with its path, and no HTTP status or code: this is a file, not a request.
        #expect(seeded.stderr.contains("the seed has 9 problems"), "\(seeded.stderr)")
        for path in [
            "users[0].email", "users[1].password", "users[1].role", "apps[0].id", "apps[0].name", "apps[0].entryPath",
            "apps[0].channels[0]", "apps[0].publisherKeys[0]", "apps[0].credentials[0].secret",
        ] {
            #expect(seeded.stderr.contains("  \(path): "), "\(path) missing from \(seeded.stderr)")
        }
        #expect(!seeded.stderr.contains("400"))
        #expect(!seeded.stderr.contains("invalid_request"))
        // Nothing was created: the data directory holds no user from the seed's valid entries.
        try Self.write(
            #"{"users":[{"email":"ok@example.com","password":"long enough"}],"apps":[{"id":"x","name":"X","credentials":[{"credentialId":"c","secret":"tiny"}]}]}"#,
            to: badSeed)
        let partial = try await PWAKitBinary.run([
            "server", "--port", "0", "--data-dir", work.appendingPathComponent("d").path, "--seed", badSeed.path,
        ])
        #expect(partial.stderr.contains("the seed has 1 problem:"))
        #expect(!partial.stderr.contains("seeded user"))
        // A publisher that names no account, in the seed or on the server, is found before anything
        // is created too: the user before it is not created.
        try Self.write(
            #"{"users":[{"email":"ok@example.com","password":"long enough"}],"apps":[{"id":"x","name":"X","publishers":["ok@example.com","nobody@example.com"]}]}"#,
            to: badSeed)
        let unknown = try await PWAKitBinary.run([
            "server", "--port", "0", "--data-dir", work.appendingPathComponent("d").path, "--seed", badSeed.path,
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("the seed has 1 problem:"), "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("  apps[0].publishers[1]: no account has the email nobody@example.com"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("seeded user"))
        // NB: no "seeded" line is printed before the whole seed is applied, so its absence proves
        // nothing: the account itself must be missing from the data directory.
        let server = try await ServerProcess.start(["--data-dir", work.appendingPathComponent("d").path])
        let (status, body) = try await HTTPProbe.call(
            "POST", server.baseURL.appendingPathComponent("v1/auth/login"),
            json: ["email": "ok@example.com", "password": "long enough"])
        await server.stop()
        #expect(status == 401, "ok@example.com exists after two refused seeds: \(body)")
    }

    @Test("outputs are never overwritten without --force; key JSON is plain; no command is a usage error")
    func outputsAndUsage() async throws {
        let work = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let keyPath = work.appendingPathComponent("key.json").path
        let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        #expect(generated.status == 0)
        #expect(!generated.stdout.contains(#"\/"#))
        #expect(!(try String(contentsOfFile: keyPath, encoding: .utf8)).contains(#"\/"#))
        let again = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        #expect(again.status == 3)
        #expect(again.stderr.contains("pass --force"))
        #expect(!again.stderr.contains("Usage:"))
        try Self.write("x", to: work.appendingPathComponent("site/index.html"))
        let output = work.appendingPathComponent("release.json").path
        let bundle = [
            "bundle", work.appendingPathComponent("site").path, "--app-id", "demo", "--version", "1.0.0", "--key", keyPath,
            "--output", output,
        ]
        #expect(try await PWAKitBinary.run(bundle).status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        let refused = try await PWAKitBinary.run(bundle)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("pass --force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == written)
        #expect(try await PWAKitBinary.run(bundle + ["--force"]).status == 0)
        // The exit statuses of docs/errors.md: 4 for an output that cannot be written, 2 for input
        // that cannot be read, each with an `error:` line.
        let unwritable = try await PWAKitBinary.run([
            "keys", "generate", "--output", work.appendingPathComponent("missing/key.json").path,
        ])
        #expect(unwritable.status == 4)
        #expect(unwritable.stderr.contains("error: cannot write"), "\(unwritable.stderr)")
        let noKey = Array(bundle.prefix(7)) + [work.appendingPathComponent("missing.json").path, "--output", output, "--force"]
        let unreadable = try await PWAKitBinary.run(noKey)
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("error: --key: cannot read"), "\(unreadable.stderr)")
        var noSite = bundle
        noSite[1] = work.appendingPathComponent("no-site").path
        let noDirectory = try await PWAKitBinary.run(noSite + ["--force"])
        #expect(noDirectory.status == 2)
        #expect(noDirectory.stderr.contains("(io_failure)"), "\(noDirectory.stderr)")
        let bare = try await PWAKitBinary.run([])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("choose a command"))
        #expect(bare.stderr.contains("miniapp"))
        // `bundle --version` is the release version: its help lists it once, with no tool-version flag beside it.
        let bundleHelp = try await PWAKitBinary.run(["bundle", "--help"])
        #expect(bundleHelp.status == 0)
        let versionLines = bundleHelp.stdout.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("--version")
        }
        #expect(versionLines.count == 1)
        #expect(bundleHelp.stdout.contains("The release version"))
        let version = try await PWAKitBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == PWAKit.version)
    }
}
