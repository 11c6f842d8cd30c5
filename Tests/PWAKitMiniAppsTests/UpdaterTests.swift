import Crypto
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
import Synchronization
import Testing

@Suite("Updater against a live server")
struct UpdaterTests {
    let key = SigningKey.generate()

    func files(_ count: Int, version: Int) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = ["index.html": bytes("<h1>v\(version)</h1><script src=app0.js></script>")]
        for index in 0..<count { files["app\(index).js"] = Array(repeating: UInt8(index), count: 2000 + index) }
        return files
    }

    @Test("first install, then an update changing k of n files fetches exactly those k files' bytes")
    func deltaUpdate() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: key)
            var v1 = files(20, version: 1)
            try await platform.publish("quiz", version: "1.0.0", files: v1, key: key)
            let (account, _) = try await platform.signedInAccount()
            let store = try BundleStore(root: temporaryDirectory())
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account,
                chunkSize: 1500)
            platform.transport.reset()
            var last: Updater.Progress?
            for try await event in updater.update(appId: "quiz", channel: "stable") {
                if case .progress(let progress) = event { last = progress }
            }
            let total = v1.values.reduce(0) { $0 + $1.count }
            #expect(platform.transport.blobBytes == total)
            #expect(last == Updater.Progress(bytesDone: total, bytesTotal: total, filesDone: 21, filesTotal: 21))
            #expect(try store.prepareLaunch(appId: "quiz") != nil)

            // Change k = 3 of the files (and the page).
            var changed = 0
            for index in [2, 7, 11] {
                v1["app\(index).js"] = Array(repeating: 0xEE, count: 3000 + index)
                changed += 3000 + index
            }
            v1["index.html"] = bytes("<h1>v2</h1>")
            changed += v1["index.html"]!.count
            try await platform.publish("quiz", version: "1.1.0", files: v1, key: key)
            platform.transport.reset()
            guard case .available(let release) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("no update offered")
            }
            try await updater.install(release, activation: .immediately)
            #expect(platform.transport.blobBytes == changed)
            #expect(try store.activeRelease(appId: "quiz")?.manifest.version == "1.1.0")
            #expect(try await updater.check(appId: "quiz", channel: "stable") == .upToDate)
            #expect(try store.integrityProblems(verifyContents: true).isEmpty)
        }
    }

    @Test("an interrupted download resumes from the bytes kept (Range), not from the start")
    func resume() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: key)
            let big = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let release = try await platform.publish("quiz", version: "1.0.0", files: ["index.html": big], key: key)
            let (account, _) = try await platform.signedInAccount()
            let store = try BundleStore(root: temporaryDirectory())
            // What a killed earlier download left: the first 60,000 bytes.
            try Data(big[0..<60_000]).write(to: URL(fileURLWithPath: store.partialPath(SHA256.hex(of: big))))
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account,
                chunkSize: 16_384)
            platform.transport.reset()
            guard case .available(let offered) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("no update offered")
            }
            #expect(offered.bundleHash == release.bundleHash)
            try await updater.install(offered)
            #expect(platform.transport.blobBytes == 40_000)
            #expect(try store.integrityProblems(verifyContents: true).isEmpty)
        }
    }

    @Test(
        "a tampered file, a bad signature, an unpinned key and an older version are each refused; the previous release stays active"
    )
    func refusals() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: key)
            let v1 = files(3, version: 1)
            try await platform.publish("quiz", version: "1.0.0", files: v1, key: key)
            let (account, _) = try await platform.signedInAccount()
            let store = try BundleStore(root: temporaryDirectory())
            let trust = PublisherTrust(keys: [key.verifyingKey])
            let updater = Updater(client: platform.client, store: store, trust: trust, tokens: account)
            let first = try await updater.check(appId: "quiz", channel: "stable")
            guard case .available(let r1) = first else { throw TestFailure("no release") }
            try await updater.install(r1, activation: .immediately)
            try await platform.publish("quiz", version: "2.0.0", files: files(3, version: 2), key: key)

            // 1. One byte of a file changed in transit.
            platform.transport.rewrite.withLock {
                $0 = { request, response in
                    guard request.url.path.hasPrefix("/v1/blobs/"), !response.body.isEmpty else { return response }
                    var changed = response
                    changed.body[changed.body.startIndex] ^= 0x01
                    return changed
                }
            }
            guard case .available(let r2) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("no update")
            }
            let tampered = await #expect(throws: MiniAppError.self) { try await updater.install(r2, activation: .immediately) }
            #expect(tampered?.code == .hashMismatch)
            #expect(try store.activeRelease(appId: "quiz")?.bundleHash == r1.bundleHash)

            // 2. One byte of the signed manifest changed.
            platform.transport.rewrite.withLock {
                $0 = { request, response in
                    guard request.url.path.hasSuffix("/releases/latest") else { return response }
                    var answer = try! JSONDecoder().decode(LatestReleaseResponse.self, from: response.body)
                    var manifest = Data(base64Encoded: answer.release!.manifest)!
                    manifest[manifest.count / 2] ^= 0x20
                    answer.release!.manifest = manifest.base64EncodedString()
                    return HTTPResponseData(status: 200, headers: response.headers, body: try! JSONEncoder().encode(answer))
                }
            }
            let badSignature = await #expect(throws: MiniAppError.self) {
                try await updater.check(appId: "quiz", channel: "stable")
            }
            #expect(badSignature?.code == .badSignature)

            // 3. Signed with a key the device does not pin.
            platform.transport.rewrite.withLock { $0 = nil }
            let stranger = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [SigningKey.generate().verifyingKey]),
                tokens: account)
            let unknown = await #expect(throws: MiniAppError.self) { try await stranger.check(appId: "quiz", channel: "stable") }
            #expect(unknown?.code == .untrustedKey)

            // 4. A hostile server offering an older release signed by the real key.
            let old = try SignedRelease.sign(
                ReleaseManifest(
                    appId: "quiz", version: "0.9.0", channel: "stable", entry: "index.html",
                    files: r1.manifest.files), with: key)
            let oldHash = try old.bundleHash()
            platform.transport.rewrite.withLock {
                $0 = { request, response in
                    guard request.url.path.hasSuffix("/releases/latest") else { return response }
                    let answer = LatestReleaseResponse(
                        upToDate: false,
                        release: ReleaseResponse(
                            appId: "quiz", channel: "stable", version: "0.9.0", bundleHash: oldHash, rolloutPercent: 100,
                            manifest: old.manifest, keyId: old.keyId, signature: old.signature, blobBaseURL: "/v1/blobs/"))
                    return HTTPResponseData(status: 200, headers: response.headers, body: try! JSONEncoder().encode(answer))
                }
            }
            let older = await #expect(throws: MiniAppError.self) { try await updater.check(appId: "quiz", channel: "stable") }
            #expect(older?.code == .versionNotNewer)
            #expect(try store.activeRelease(appId: "quiz")?.bundleHash == r1.bundleHash)
            #expect(try store.integrityProblems(verifyContents: true).isEmpty)
        }
    }

    @Test("a release that is marked bad is not offered for installation again")
    func badNotReinstalled() async throws {
        try await LivePlatform.run { platform in
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: files(1, version: 1), key: key)
            let (account, _) = try await platform.signedInAccount()
            let store = try BundleStore(root: temporaryDirectory())
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
            guard case .available(let r1) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("none")
            }
            try await updater.install(r1)
            try await platform.publish("quiz", version: "2.0.0", files: files(1, version: 2), key: key)
            guard case .available(let r2) = try await updater.check(appId: "quiz", channel: "stable") else {
                throw TestFailure("none")
            }
            try await updater.install(r2, activation: .immediately)
            try store.rollBack(appId: "quiz", failing: r2.bundleHash)
            // The server still offers 2.0.0 (the newest installed); nothing newer, so up to date.
            #expect(try await updater.check(appId: "quiz", channel: "stable") == .upToDate)
            #expect(try store.activeRelease(appId: "quiz")?.bundleHash == r1.bundleHash)
        }
    }
}

@Suite("Updater finishing an interrupted install")
struct InterruptedInstallTests {
    @Test("a release whose record was stored but whose state was not (a kill between the two) is installed by the next update")
    func finishesAnInstallKilledBetweenItsTwoWrites() async throws {
        try await LivePlatform.run { platform in
            let key = SigningKey.generate()
            try await platform.createApp("quiz", key: key)
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": Array("v1".utf8)], key: key)
            let (account, _) = try await platform.signedInAccount()
            let root = temporaryDirectory()
            let store = try BundleStore(root: root)
            let updater = Updater(
                client: platform.client, store: store, trust: PublisherTrust(keys: [key.verifyingKey]), tokens: account)
            for try await _ in updater.update(appId: "quiz", channel: "stable", activation: .immediately) {}
            let v1 = try #require(try store.app("quiz").active)
            // The kill: v2's record is written, the state is the one from before.
            let state = root.appendingPathComponent("apps/quiz/state.json")
            let before = try Data(contentsOf: state)
            try await platform.publish("quiz", version: "2.0.0", files: ["index.html": Array("v2".utf8)], key: key)
            for try await _ in updater.update(appId: "quiz", channel: "stable", activation: .immediately) {}
            let v2 = try #require(try store.app("quiz").active)
            #expect(v2 != v1)
            try before.write(to: state)
            #expect(try store.app("quiz").active == v1)
            // The server says up to date (2.0.0 is installed); the update finishes the install.
            var events: [Updater.Event] = []
            for try await event in updater.update(appId: "quiz", channel: "stable", activation: .immediately) {
                events.append(event)
            }
            #expect(try store.app("quiz").active == v2)
            #expect(events.contains { if case .installed = $0 { true } else { false } })
            // Once adopted, it is up to date.
            var again: [Updater.Event] = []
            for try await event in updater.update(appId: "quiz", channel: "stable") { again.append(event) }
            #expect(again == [.upToDate])
            // An explicit rollback is not undone by the next update.
            try store.activate(appId: "quiz", bundleHash: v1)
            for try await _ in updater.update(appId: "quiz", channel: "stable", activation: .immediately) {}
            #expect(try store.app("quiz").active == v1)
        }
    }
}

@Suite("URLSession transport under cancellation")
struct TransportCancellationTests {
    @Test("cancelling calls in flight, 200 times at random moments, neither hangs nor loses an answer")
    func cancellation() async throws {
        try await LivePlatform.run { platform in
            let key = SigningKey.generate()
            try await platform.createApp("quiz", key: key)
            let big = (0..<400_000).map { UInt8(truncatingIfNeeded: $0) }
            try await platform.publish("quiz", version: "1.0.0", files: ["index.html": big], key: key)
            let (started, signal) = AsyncStream.makeStream(of: Void.self)
            let client = APIClient(baseURL: platform.baseURL, transport: Signalling(signal: signal))
            var cancelled = 0
            var completed = 0
            var waits = started.makeAsyncIterator()
            for round in 0..<200 {
                let call = Task { try await client.blob(SHA256.hex(of: big)) }
                // NB: cancel once the request is on its way (and, every other round, a few scheduler turns later).
                _ = await waits.next()
                for _ in 0..<(round % 2 == 0 ? 0 : round % 7) { await Task.yield() }
                call.cancel()
                switch await call.result {
                case .success(let response):
                    #expect(response.body.count == big.count)
                    completed += 1
                case .failure(let error):
                    #expect(error is CancellationError, "\(error)")
                    cancelled += 1
                }
            }
            print("transport cancellation: \(cancelled) cancelled in flight, \(completed) completed first")
            #expect(cancelled + completed == 200)
            // NB: a cancelled call's connection may still sit in the server's accept queue. One more
            // request on a new connection is accepted behind it, so when it is answered the server has
            // taken every earlier connection: none is left half-accepted when the test server stops
            // (swift-nio traps on a connection accepted during shutdown, apple/swift-nio#3481).
            let drained = try await APIClient(baseURL: platform.baseURL, transport: URLSessionTransport())
                .blob(SHA256.hex(of: big))
            #expect(drained.body.count == big.count)
        }
    }
}

/// The URLSession transport, announcing each request as it goes out.
struct Signalling: HTTPTransport {
    let signal: AsyncStream<Void>.Continuation
    let inner = URLSessionTransport()
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        signal.yield()
        return try await inner.send(request)
    }
}
