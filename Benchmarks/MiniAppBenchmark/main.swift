import BenchmarkArguments
import Crypto
import Foundation
import Logging
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
import PWAKitModules
import PWAKitServer
import Synchronization

// MiniAppBenchmark: each figure against a floor measured in the same run.
//   1. an update's bytes fetched / the bytes of the files it changed;
//   2. installing a 200-file, 2 MB release from local files / `cp -r` of the same files plus one `sync -f`;
//   3. cold launch of a cached mini-app to `ready` / `pwakit run` of the same directory (needs the WebKitGTK build
//      of `pwakit` beside this executable and a display or xvfb-run);
//   4. `pwakit launcher` cold start to the grid shown (and saved as a PNG) / `pwakit run` of a static page to ready
//      (and saved);
//   5. in the launcher, tap on a cached app → its `ready` / `pwakit run` of the same directory, view built → `ready`.
// Usage: MiniAppBenchmark [--runs N] [--skip-launch]

let (runs, skipLaunch) = BenchmarkArguments.parse(
    name: "MiniAppBenchmark", usage: "usage: MiniAppBenchmark [--runs N] [--skip-launch]   (7 runs if not given)"
) { arguments in
    (try arguments.integer("--runs", default: 7), try arguments.flag("--skip-launch"))
}
let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pwakit-miniapp-bench-\(getpid())")
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Counts the body bytes of blob answers.
final class Counting: HTTPTransport {
    let inner = URLSessionTransport()
    let bytes = Mutex(0)
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let response = try await inner.send(request)
        if request.url.path.hasPrefix("/v1/blobs/") { bytes.withLock { $0 += response.body.count } }
        return response
    }
}

/// A platform server in this process on a loopback port, with an administrator and an app `bench`
/// whose releases `key` signs.
struct LiveServer {
    let base: URL
    let admin: String
    let key: SigningKey
    let serving: Task<Void, any Error>
    let server: PlatformServer

    /// Stops serving and closes the database.
    func stop() async {
        serving.cancel()
        _ = try? await serving.value
        try? await server.storage.close()
    }

    static func start(directory: URL) async throws -> LiveServer {
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        let server = try await PlatformServer.make(
            storage: try await SQLStorage.sqlite(path: nil), blobs: try FileBlobStore(root: directory),
            configuration: configuration)
        _ = try await server.apply(
            ServerSeed(users: [.init(email: "admin@example.com", password: "admin-password", role: "admin")]))
        let port = Mutex<Int?>(nil)
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let serving = Task {
            try await server.run(host: "127.0.0.1", port: 0, logger: logger) { bound in port.withLock { $0 = bound } }
        }
        while port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        let base = URL(string: "http://127.0.0.1:\(port.withLock { $0 }!)")!
        let client = APIClient(baseURL: base)
        let admin = try await client.login(LoginRequest(email: "admin@example.com", password: "admin-password")).accessToken
        let key = SigningKey.generate()
        _ = try await client.createApp(CreateAppRequest(id: "bench", name: "Bench"), accessToken: admin)
        _ = try await client.addPublisherKey(appId: "bench", publicKey: key.verifyingKey.base64, accessToken: admin)
        return LiveServer(base: base, admin: admin, key: key, serving: serving, server: server)
    }

    /// Uploads the files the server lacks and publishes a release of `bench` signed with ``key``.
    func publish(_ version: String, _ files: [String: [UInt8]]) async throws {
        let client = APIClient(baseURL: base)
        let entries = files.map {
            ManifestFile(
                path: $0.key, sha256: SHA256.hex(of: $0.value), size: $0.value.count, contentType: ContentTypes.forPath($0.key))
        }
        let manifest = ReleaseManifest(appId: "bench", version: version, channel: "stable", entry: "index.html", files: entries)
        let signed = try SignedRelease.sign(manifest, with: key)
        let missing = Set(try await client.missingBlobs(entries.map(\.sha256), accessToken: admin))
        for bytes in files.values where missing.contains(SHA256.hex(of: bytes)) {
            _ = try await client.uploadBlob(Data(bytes), sha256: SHA256.hex(of: bytes), accessToken: admin)
        }
        _ = try await client.publish(
            appId: "bench", PublishReleaseRequest(manifest: signed.manifest, keyId: signed.keyId, signature: signed.signature),
            accessToken: admin)
    }
}

// MARK: 1. Delta update

print("== 1. update: bytes fetched / bytes of the changed files")
do {
    let live = try await LiveServer.start(directory: work.appendingPathComponent("server-blobs"))
    let transport = Counting()
    let client = APIClient(baseURL: live.base, transport: transport)
    let key = live.key
    func publish(_ version: String, _ files: [String: [UInt8]]) async throws {
        try await live.publish(version, files)
    }
    var files: [String: [UInt8]] = ["index.html": Array("<h1>bench</h1>".utf8)]
    for index in 0..<200 { files["assets/f\(index).js"] = randomBytes(10_000 + index) }
    try await publish("1.0.0", files)
    let account = AccountSession(client: client, vault: InMemorySecureStore())
    try await account.register(email: "user@example.com", password: "user-password-1")
    let store = try BundleStore(root: work.appendingPathComponent("device-store"))
    let updater = Updater(client: client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
    for try await _ in updater.update(appId: "bench", channel: "stable") {}
    var changedBytes = 0
    for index in stride(from: 0, to: 200, by: 10) {
        files["assets/f\(index).js"] = randomBytes(12_000)
        changedBytes += 12_000
    }
    try await publish("1.1.0", files)
    transport.bytes.withLock { $0 = 0 }
    let started = ContinuousClock.now
    for try await _ in updater.update(appId: "bench", channel: "stable", activation: .immediately) {}
    let elapsed = ContinuousClock.now - started
    let fetched = transport.bytes.withLock { $0 }
    print("changed 20 of 201 files: \(changedBytes) bytes; fetched \(fetched) blob bytes in \(elapsed)")
    print(
        String(
            format: "ratio (fetched / changed): %.3f  (goal <= 1.05; the manifest comes on top)",
            Double(fetched) / Double(changedBytes)))
    await live.stop()
}

// MARK: 2. Install from local files

print("\n== 2. install of a 200-file, 2 MB release from local files / cp -r + sync -f")
do {
    let source = work.appendingPathComponent("install-source")
    var files: [String: [UInt8]] = [:]
    for index in 0..<200 { files["f\(index).js"] = randomBytes(10_485) }
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    for (path, bytes) in files { try Data(bytes).write(to: source.appendingPathComponent(path)) }
    let key = SigningKey.generate()
    let entries = files.map {
        ManifestFile(path: $0.key, sha256: SHA256.hex(of: $0.value), size: $0.value.count, contentType: "text/javascript")
    }
    let release = try PublisherTrust(keys: [key.verifyingKey]).verify(
        try SignedRelease.sign(
            ReleaseManifest(appId: "bench", version: "1.0.0", channel: "stable", entry: "f0.js", files: entries), with: key),
        appId: "bench")

    func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
    }
    var floors: [Double] = []
    var ours: [Double] = []
    for round in 0..<runs {
        // Floor: the same bytes copied by cp, then one sync of the file system.
        let copy = work.appendingPathComponent("copy-\(round)")
        let floorStart = ContinuousClock.now
        try run("/bin/cp", ["-r", source.path, copy.path])
        try run("/bin/sync", ["-f", copy.path])
        floors.append(seconds(ContinuousClock.now - floorStart))

        // Ours: the files handed over as completed downloads, verified, synced, named and installed.
        let store = try BundleStore(root: work.appendingPathComponent("store-\(round)"))
        for (path, bytes) in files {
            _ = path
            try Data(bytes).write(to: URL(fileURLWithPath: store.partialPath(SHA256.hex(of: bytes))))
        }
        let ourStart = ContinuousClock.now
        for entry in entries { try store.ingestPartial(entry.sha256, size: entry.size) }
        try store.install(release, activation: .immediately)
        ours.append(seconds(ContinuousClock.now - ourStart))
        try? FileManager.default.removeItem(at: copy)
    }
    print(String(format: "floor (cp + sync) median %.1f ms; install median %.1f ms", median(floors) * 1000, median(ours) * 1000))
    print(String(format: "ratio (install / floor): %.2f  (goal <= 1.5)", median(ours) / median(floors)))
}

// MARK: 3. Cold launch to ready

print("\n== 3. cold launch of a cached mini-app to ready / pwakit run of the same directory")
let pwakit = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("pwakit")
if skipLaunch {
    print("skipped (--skip-launch)")
} else if !FileManager.default.isExecutableFile(atPath: pwakit.path) {
    print("skipped: no pwakit beside this executable (swift build -c release --traits WebKitGTK --product pwakit)")
} else {
    let site = work.appendingPathComponent("launch-site")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    let page =
        "<!doctype html><meta charset=utf-8><title>bench</title><h1>bench</h1><script>addEventListener('load', () => PWAKit.ready())</script>"
    var files: [String: [UInt8]] = ["index.html": Array(page.utf8)]
    for index in 0..<20 {
        files["assets/f\(index).js"] = Array("// \(index)\n".utf8) + randomBytes(2000).map { _ in UInt8(ascii: "x") }
    }
    for (path, bytes) in files {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    try Data(
        #"{"version":1,"app":{"name":"bench","bundleId":"dev.pwakit.bench","startUrl":"app://bench/index.html"},"origins":{"allowed":["bench"]}}"#
            .utf8
    ).write(to: site.appendingPathComponent("pwa-config.json"))
    let key = SigningKey.generate()
    let entries = files.map {
        ManifestFile(
            path: $0.key, sha256: SHA256.hex(of: $0.value), size: $0.value.count, contentType: ContentTypes.forPath($0.key))
    }
    let release = try PublisherTrust(keys: [key.verifyingKey]).verify(
        try SignedRelease.sign(
            ReleaseManifest(appId: "bench", version: "1.0.0", channel: "stable", entry: "index.html", files: entries), with: key),
        appId: "bench")
    let storeURL = work.appendingPathComponent("launch-store")
    let store = try BundleStore(root: storeURL)
    for bytes in files.values {
        try Data(bytes).write(to: URL(fileURLWithPath: store.partialPath(SHA256.hex(of: bytes))))
        try store.ingestPartial(SHA256.hex(of: bytes), size: bytes.count)
    }
    try store.install(release, activation: .immediately)
    func timed(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = pwakit
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return seconds(ContinuousClock.now - start)
    }
    let shot = work.appendingPathComponent("shot.png").path
    let data = work.appendingPathComponent("website-data").path
    var floors: [Double] = []
    var ours: [Double] = []
    for _ in 0..<runs {
        floors.append(
            try timed(["run", site.path, "--screenshot", shot, "--wait-for", "ready", "--data-dir", data]))
        ours.append(
            try timed([
                "miniapp", "open", "bench", "--store", storeURL.path, "--screenshot", shot, "--wait-for", "ready", "--data-dir",
                data,
            ]))
    }
    print(String(format: "pwakit run median %.0f ms; miniapp open median %.0f ms", median(floors) * 1000, median(ours) * 1000))
    print(String(format: "ratio (miniapp open / run): %.2f  (goal <= 1.2)", median(ours) / median(floors)))
}

// MARK: 4 and 5. The launcher

print("\n== 4. launcher cold start to the grid shown / pwakit run of a static page")
print("== 5. tap → ready of a cached app in the launcher / pwakit run of the same directory, view built → ready")
if skipLaunch || !FileManager.default.isExecutableFile(atPath: pwakit.path) {
    print("skipped")
} else {
    let live = try await LiveServer.start(directory: work.appendingPathComponent("launcher-blobs"))
    let page =
        "<!doctype html><meta charset=utf-8><title>bench</title><h1>bench</h1><script>addEventListener('load', () => PWAKit.ready())</script>"
    var files: [String: [UInt8]] = ["index.html": Array(page.utf8)]
    for index in 0..<20 {
        files["assets/f\(index).js"] = Array("// \(index)\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 2000)
    }
    try await live.publish("1.0.0", files)
    _ = try await APIClient(baseURL: live.base).register(RegisterRequest(email: "user@example.com", password: "user-password-1"))
    let site = work.appendingPathComponent("launcher-site")
    for (path, bytes) in files {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    try Data(
        #"{"version":1,"app":{"name":"bench","bundleId":"dev.pwakit.bench","startUrl":"app://bench/index.html"},"origins":{"allowed":["bench"]}}"#
            .utf8
    ).write(to: site.appendingPathComponent("pwa-config.json"))
    let shot = work.appendingPathComponent("launcher-shot.png").path
    func tour(_ steps: String) throws -> String {
        let path = work.appendingPathComponent("tour-\(UUID().uuidString).json").path
        try Data(#"{"steps": [\#(steps)]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
    /// Runs pwakit; the wall time and the JSON lines it printed.
    func launched(_ arguments: [String]) throws -> (Double, [[String: Any]]) {
        let process = Process()
        process.executableURL = pwakit
        process.arguments = arguments
        let output = work.appendingPathComponent("out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["PWAKIT_PASSWORD": "user-password-1"]) { $1 }
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let wall = seconds(ContinuousClock.now - start)
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        let lines = (try String(contentsOf: output, encoding: .utf8)).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (wall, lines)
    }
    let launcher = [
        "launcher", "--server", live.base.absoluteString, "--store", work.appendingPathComponent("launcher-store").path,
        "--data-dir", work.appendingPathComponent("launcher-data").path, "--trust-key", live.key.verifyingKey.base64,
        "--email", "user@example.com",
    ]
    // Warm-up: signs in (the session is kept), installs the app, opens it once.
    _ = try launched(
        launcher + [
            "--tour", try tour(##"{"waitFor": "#app-bench"}, {"click": "#app-bench"}, {"waitForApp": "bench"}, {"back": true}"##),
        ])
    let grid = try tour(##"{"waitFor": "#app-bench"}, {"screenshot": "\##(shot)"}"##)
    let tap = try tour(##"{"waitFor": "#app-bench"}, {"click": "#app-bench"}, {"waitForApp": "bench"}"##)
    var runWalls: [Double] = []
    var gridWalls: [Double] = []
    var runReady: [Double] = []
    var tapReady: [Double] = []
    for _ in 0..<runs {
        let (runWall, runLines) = try launched(["run", site.path, "--screenshot", shot, "--wait-for", "ready"])
        runWalls.append(runWall)
        if let ready = runLines.first(where: { $0["event"] as? String == "ready" })?["sinceStartMs"] as? Double {
            runReady.append(ready / 1000)
        }
        gridWalls.append(try launched(launcher + ["--tour", grid]).0)
        let (_, tapLines) = try launched(launcher + ["--tour", tap])
        if let ready = tapLines.first(where: { $0["event"] as? String == "appReady" })?["sinceTapMs"] as? Double {
            tapReady.append(ready / 1000)
        }
    }
    print(
        String(
            format: "pwakit run (static page, screenshot) median %.0f ms; launcher to the grid (screenshot) median %.0f ms",
            median(runWalls) * 1000, median(gridWalls) * 1000))
    print(String(format: "ratio (launcher cold start / run): %.2f  (goal <= 1.3)", median(gridWalls) / median(runWalls)))
    print(
        String(
            format: "pwakit run view built → ready median %.0f ms; launcher tap → ready median %.0f ms",
            median(runReady) * 1000, median(tapReady) * 1000))
    print(String(format: "ratio (tap → ready / run): %.2f  (goal <= 1.2)", median(tapReady) / median(runReady)))
    await live.stop()
}
