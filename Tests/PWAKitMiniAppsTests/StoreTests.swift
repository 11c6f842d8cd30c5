import Crypto
import Foundation
import PWAKitBundles
import PWAKitMiniApps
import Testing

/// A signed, verified release of `files`, built in memory.
func verifiedRelease(
    _ appId: String, _ version: String, files: [String: [UInt8]], key: SigningKey, channel: String = "stable"
) throws -> VerifiedRelease {
    let entries = files.map { path, bytes in
        ManifestFile(path: path, sha256: SHA256.hex(of: bytes), size: bytes.count, contentType: ContentTypes.forPath(path))
    }
    let manifest = ReleaseManifest(appId: appId, version: version, channel: channel, entry: "index.html", files: entries)
    return try PublisherTrust(keys: [key.verifyingKey]).verify(try SignedRelease.sign(manifest, with: key), appId: appId)
}

extension BundleStore {
    /// Puts files into the store the way a download does: a partial file, then verified ingestion.
    func put(_ files: [String: [UInt8]]) throws {
        for bytes in files.values {
            let hash = SHA256.hex(of: bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: partialPath(hash)))
            try ingestPartial(hash, size: bytes.count)
        }
    }

    func installing(_ release: VerifiedRelease, files: [String: [UInt8]], activation: Activation = .immediately) throws {
        try put(files)
        try install(release, activation: activation)
    }
}

@Suite("Bundle store")
struct StoreTests {
    let key = SigningKey.generate()
    let v1Files = ["index.html": bytes("<h1>one</h1>"), "app.js": bytes("console.log(1)"), "shared.css": bytes("body{}")]

    @Test("an installed release is active, its files resolve, and the store is consistent")
    func installAndResolve() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let release = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(release, files: v1Files)
        let launch = try #require(try store.prepareLaunch(appId: "quiz"))
        #expect(launch.bundleHash == release.bundleHash)
        #expect(launch.onProbation)
        let file = try #require(launch.file(at: "app.js"))
        #expect(try Data(contentsOf: file.location) == Data(bytes("console.log(1)")))
        #expect(launch.file(at: "../lock") == nil)
        #expect(try store.integrityProblems(verifyContents: true).isEmpty)
    }

    @Test("a file two apps contain is stored once, and counted for each app")
    func sharedAcrossApps() throws {
        let store = try BundleStore(root: temporaryDirectory())
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key), files: v1Files)
        let otherFiles = ["index.html": bytes("<h1>other</h1>"), "shared.css": bytes("body{}")]
        try store.installing(try verifiedRelease("chess", "1.0.0", files: otherFiles, key: key), files: otherFiles)
        let usage = try store.usage()
        let distinct = Set(v1Files.values.map { $0 } + otherFiles.values.map { $0 }).reduce(0) { $0 + $1.count }
        #expect(usage.totalBytes == distinct)
        #expect(usage.bytesByApp["chess"] == otherFiles.values.reduce(0) { $0 + $1.count })
        let blobFiles = try FileManager.default.subpathsOfDirectory(atPath: store.root.appendingPathComponent("blobs").path)
            .filter { $0.count > 3 }
        #expect(blobFiles.count == 4)
    }

    @Test("garbage collection frees exactly the files no installed release references")
    func garbageCollection() throws {
        let store = try BundleStore(root: temporaryDirectory())
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key), files: v1Files)
        let v2Files = ["index.html": bytes("<h1>two</h1>"), "app.js": bytes("console.log(1)"), "shared.css": bytes("body{}")]
        try store.installing(try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key), files: v2Files)
        let stray = bytes("nobody references this")
        try store.put(["stray": stray])
        #expect(try store.collectGarbage().removedBlobs == [SHA256.hex(of: stray)])
        #expect(try store.collectGarbage().removedBlobs.isEmpty)
        // Clearing quiz frees everything: chess is not installed.
        let cleared = try store.clear(appId: "quiz")
        #expect(
            Set(cleared.removedBlobs) == Set((v1Files.values.map { $0 } + v2Files.values.map { $0 }).map { SHA256.hex(of: $0) }))
        #expect(try store.usage().totalBytes == 0)
        #expect(try store.prepareLaunch(appId: "quiz") == nil)
    }

    @Test("clearing one app keeps the files another app still uses")
    func clearKeepsShared() throws {
        let store = try BundleStore(root: temporaryDirectory())
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key), files: v1Files)
        let otherFiles = ["index.html": bytes("<h1>other</h1>"), "shared.css": bytes("body{}")]
        try store.installing(try verifiedRelease("chess", "1.0.0", files: otherFiles, key: key), files: otherFiles)
        let removed = try store.clear(appId: "quiz").removedBlobs
        #expect(!removed.contains(SHA256.hex(of: bytes("body{}"))))
        #expect(removed.count == 2)
        #expect(try store.integrityProblems(verifyContents: true).isEmpty)
        #expect(try store.prepareLaunch(appId: "chess") != nil)
    }

    @Test("the integrity check reports a release record it cannot read, and still checks the app's other releases")
    func integrityReportsWhatItCannotRead() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let v2Files = ["index.html": bytes("<h1>two</h1>"), "app.js": bytes("console.log(2)")]
        try store.installing(try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key), files: v2Files)
        try store.installing(try verifiedRelease("quiz", "3.0.0", files: v1Files, key: key), files: v1Files)
        #expect(try store.integrityProblems(verifyContents: true).isEmpty)
        // 2.0.0's app.js is gone: only a check that still reads 2.0.0's record finds it.
        try FileManager.default.removeItem(atPath: store.blobPath(SHA256.hex(of: bytes("console.log(2)"))))
        // A release record that cannot be read: reported, not an app with nothing to check.
        let releases = store.root.appendingPathComponent("apps/quiz/releases")
        let v3 = try #require(try store.installedReleases(appId: "quiz").first { $0.version == "3.0.0" })
        try Data("{".utf8).write(to: releases.appendingPathComponent(v3.bundleHash + ".json"))
        let problems = try store.integrityProblems(verifyContents: true)
        #expect(problems.contains { $0.contains("the record of release \(v3.bundleHash) cannot be read") }, "\(problems)")
        #expect(problems.contains { $0.contains("2.0.0: app.js missing") }, "\(problems)")
    }

    @Test("an older or equal version is refused; an explicit rollback to an installed release is not")
    func antiRollback() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v1Files, key: key)
        try store.installing(v2, files: v1Files)
        let older = try verifiedRelease("quiz", "1.9.9", files: ["index.html": bytes("old")], key: key)
        let error = #expect(throws: MiniAppError.self) { try store.installing(older, files: ["index.html": bytes("old")]) }
        #expect(error?.code == .versionNotNewer)
        #expect(error?.field == "manifest.version")
        #expect(try store.activeRelease(appId: "quiz")?.bundleHash == v2.bundleHash)
        // Installing the same release again is harmless.
        try store.install(v2, activation: .immediately)
        let v3Files = ["index.html": bytes("three")]
        let v3 = try verifiedRelease("quiz", "3.0.0", files: v3Files, key: key)
        try store.installing(v3, files: v3Files)
        try store.activate(appId: "quiz", bundleHash: v2.bundleHash)
        #expect(try store.activeRelease(appId: "quiz")?.bundleHash == v2.bundleHash)
    }

    @Test("a release with a file missing from the store is not installed")
    func missingFiles() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let release = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.put(["index.html": v1Files["index.html"]!])
        let error = #expect(throws: MiniAppError.self) { try store.install(release, activation: .immediately) }
        #expect(error?.code == .missingBlobs)
        #expect(try store.activeRelease(appId: "quiz") == nil)
    }

    @Test("bytes that do not hash to their address never enter the store")
    func hashMismatch() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let hash = SHA256.hex(of: bytes("real"))
        try Data(bytes("fake")).write(to: URL(fileURLWithPath: store.partialPath(hash)))
        let error = #expect(throws: MiniAppError.self) { try store.ingestPartial(hash, size: 4) }
        #expect(error?.code == .hashMismatch)
        #expect(!store.hasBlob(hash, size: 4))
        #expect(!FileManager.default.fileExists(atPath: store.partialPath(hash)))
    }

    @Test("next-launch activation: the running release stays until the next launch")
    func nextLaunch() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let v1 = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(v1, files: v1Files)
        _ = try store.prepareLaunch(appId: "quiz")
        try store.confirmReady(appId: "quiz", bundleHash: v1.bundleHash)
        let v2Files = ["index.html": bytes("two")]
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key)
        try store.installing(v2, files: v2Files, activation: .nextLaunch)
        #expect(try store.activeRelease(appId: "quiz")?.bundleHash == v1.bundleHash)
        #expect(try store.app("quiz").pending == v2.bundleHash)
        let launch = try #require(try store.prepareLaunch(appId: "quiz"))
        #expect(launch.bundleHash == v2.bundleHash)
        #expect(launch.onProbation)
        #expect(try store.app("quiz").previous == v1.bundleHash)
    }

    @Test("a release that never reports ready is rolled back, marked bad and not installed again")
    func readyRollback() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let v1 = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(v1, files: v1Files)
        _ = try store.prepareLaunch(appId: "quiz")
        try store.confirmReady(appId: "quiz", bundleHash: v1.bundleHash)
        let v2Files = ["index.html": bytes("broken")]
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key)
        try store.installing(v2, files: v2Files)
        let after = try store.rollBack(appId: "quiz", failing: v2.bundleHash)
        #expect(after?.bundleHash == v1.bundleHash)
        #expect(try store.app("quiz").bad == [v2.bundleHash])
        let error = #expect(throws: MiniAppError.self) { try store.install(v2, activation: .immediately) }
        #expect(error?.code == .releaseMarkedBad)
        #expect(try store.activeRelease(appId: "quiz")?.bundleHash == v1.bundleHash)
    }

    @Test("a release whose launch ended before ready (crash, kill) is rolled back at the next launch")
    func crashBeforeReady() throws {
        let store = try BundleStore(root: temporaryDirectory())
        let v1 = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(v1, files: v1Files)
        _ = try store.prepareLaunch(appId: "quiz")
        try store.confirmReady(appId: "quiz", bundleHash: v1.bundleHash)
        let v2Files = ["index.html": bytes("crashes")]
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key)
        try store.installing(v2, files: v2Files, activation: .nextLaunch)
        #expect(try store.prepareLaunch(appId: "quiz")?.bundleHash == v2.bundleHash)
        // The process dies here, before ready. The next launch:
        let reopened = try BundleStore(root: store.root)
        #expect(try reopened.prepareLaunch(appId: "quiz")?.bundleHash == v1.bundleHash)
        #expect(try reopened.app("quiz").bad == [v2.bundleHash])
    }

    @Test("the quota evicts inactive releases, oldest first, never the active or the rollback target")
    func quota() throws {
        let store = try BundleStore(root: temporaryDirectory())
        var hashes: [String] = []
        for version in 1...4 {
            let files = ["index.html": Array(repeating: UInt8(version), count: 1000)]
            let release = try verifiedRelease("quiz", "\(version).0.0", files: files, key: key)
            try store.installing(release, files: files)
            hashes.append(release.bundleHash)
        }
        #expect(try store.usage().totalBytes == 4000)
        let evicted = try store.enforceQuota(maximumBytes: 2500)
        #expect(evicted.map(\.version) == ["1.0.0", "2.0.0"])
        #expect(try store.usage().totalBytes == 2000)
        #expect(try store.installedReleases(appId: "quiz").map(\.version) == ["4.0.0", "3.0.0"])
        #expect(try store.enforceQuota(maximumBytes: 10).isEmpty)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test(
        "hostile app ids and hashes are refused with the field at fault",
        arguments: ["", "../x", "A", "a/b", ".hidden", String(repeating: "a", count: 65)])
    func hostileIds(_ appId: String) throws {
        let store = try BundleStore(root: temporaryDirectory())
        let error = #expect(throws: MiniAppError.self) { _ = try store.prepareLaunch(appId: appId) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "appId")
        #expect(!store.hasBlob("../../etc/passwd", size: 0))
    }

    @Test("a damaged state file is reported, not taken for an empty app")
    func damagedState() throws {
        let store = try BundleStore(root: temporaryDirectory())
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key), files: v1Files)
        try Data("{not json".utf8).write(to: store.root.appendingPathComponent("apps/quiz/state.json"))
        let error = #expect(throws: MiniAppError.self) { _ = try store.prepareLaunch(appId: "quiz") }
        #expect(error?.code == .storeCorrupt)
    }

    @Test("temporary files of an interrupted write are swept when the store opens")
    func sweep() throws {
        let store = try BundleStore(root: temporaryDirectory())
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key), files: v1Files)
        let stray = store.root.appendingPathComponent("apps/quiz/state.json.123.456.tmp")
        try Data("half".utf8).write(to: stray)
        _ = try BundleStore(root: store.root)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }
}

@Suite("Bundle store durability")
struct StoreDurabilityTests {
    @Test("files named since the last sync are re-verified when a store opens after a crash; bad ones are dropped")
    func recoveryAfterCrash() throws {
        let key = SigningKey.generate()
        let store = try BundleStore(root: temporaryDirectory())
        let files = ["index.html": bytes("kept"), "app.js": bytes("var torn = true")]
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: files, key: key), files: files)
        let marker = store.root.appendingPathComponent("blobs/.unsynced")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "an install syncs and drops the marker")
        // A download named but never synced, whose bytes a power loss left wrong.
        try store.put(["later.js": bytes("console.log('later')")])
        #expect(FileManager.default.fileExists(atPath: marker.path))
        let torn = SHA256.hex(of: bytes("console.log('later')"))
        try Data(count: 20).write(to: URL(fileURLWithPath: store.blobPath(torn)))
        let reopened = try BundleStore(root: store.root)
        #expect(!reopened.hasBlob(torn, size: 20))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(try reopened.integrityProblems(verifyContents: true).isEmpty)
        #expect(try reopened.prepareLaunch(appId: "quiz") != nil)
    }

    @Test("a stored file that cannot be read after a crash is kept, with the marker, and the store says so")
    func unreadableFileAfterCrash() throws {
        let key = SigningKey.generate()
        let store = try BundleStore(root: temporaryDirectory())
        let files = ["index.html": bytes("kept")]
        try store.installing(try verifiedRelease("quiz", "1.0.0", files: files, key: key), files: files)
        try store.put(["later.js": bytes("console.log('later')")])
        let marker = store.root.appendingPathComponent("blobs/.unsynced")
        #expect(FileManager.default.fileExists(atPath: marker.path))
        // NB: a directory in the file's place reads as an error (EISDIR), as a failing disk would,
        // also for root, whom permissions do not stop.
        let index = SHA256.hex(of: bytes("kept"))
        let path = store.blobPath(index)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".saved")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let refused = #expect(throws: MiniAppError.self) { try BundleStore(root: store.root) }
        #expect(refused?.code == .storageFailed)
        #expect(refused?.field == "blobs/\(index)")
        #expect(FileManager.default.fileExists(atPath: path), "not deleted")
        #expect(FileManager.default.fileExists(atPath: marker.path), "checked again at the next open")
        // Readable again: the next open checks it, keeps it (its bytes are its name) and drops the marker.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".saved", toPath: path)
        let reopened = try BundleStore(root: store.root)
        #expect(reopened.hasBlob(index, size: 4))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
}
