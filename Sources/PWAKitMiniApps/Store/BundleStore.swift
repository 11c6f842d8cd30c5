import Crypto
public import Foundation
import PWAKitBundles
import PWAKitFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device's store of mini-app releases: files content-addressed by SHA-256 and shared across
/// every app (a file two apps contain is stored once), per app its installed releases and one
/// active pointer.
///
/// Layout under the root:
/// ```
/// lock                                   flock: one writer at a time, across processes
/// blobs/<first two hex digits>/<sha256>  immutable files, verified before they get their name
/// partial/<sha256>                       interrupted downloads, resumed from their length
/// apps/<appId>/releases/<bundleHash>.json  the signed envelope as verified at install
/// apps/<appId>/state.json                active / previous / pending / probation / bad
/// ```
/// Every change ends in one atomic rename of a synced file, so `kill -9` at any instant leaves
/// either the old state or the new one; temporary files it leaves are swept when a store opens.
public final class BundleStore: Sendable {
    /// The root directory.
    public let root: URL
    let rootPath: String
    let lock: FileLock

    /// Opens (creating) a store at `root` and sweeps what an interrupted writer left behind.
    public init(root: URL) throws {
        self.root = root.standardizedFileURL
        rootPath = self.root.path
        do {
            for directory in ["", "/blobs", "/partial", "/apps"] {
                try DurableFile.makeDirectory(rootPath + directory, permissions: 0o700)
            }
            lock = try FileLock(path: rootPath + "/lock")
        } catch {
            throw MiniAppError(.storageFailed, "cannot open the store at \(rootPath): \(error)", underlying: error)
        }
        try locked {
            try sweepTemporaryFiles()
            try recoverUnsyncedFiles()
        }
    }

    // MARK: Blobs

    /// Where the file with `sha256` lives.
    public func blobPath(_ sha256: String) -> String { Self.blobPath(sha256, root: rootPath + "/blobs") }

    static func blobPath(_ sha256: String, root: String) -> String {
        "\(root)/\(sha256.prefix(2))/\(sha256)"
    }

    /// Where an interrupted download of `sha256` is kept.
    public func partialPath(_ sha256: String) -> String { "\(rootPath)/partial/\(sha256)" }

    /// Whether the store holds the file with `sha256` at `size` bytes.
    public func hasBlob(_ sha256: String, size: Int) -> Bool {
        guard Self.isHash(sha256) else { return false }
        return Self.fileSize(blobPath(sha256)) == size
    }

    /// Moves a complete download into the store after checking that its bytes hash to `sha256`;
    /// a download that does not is deleted and refused.
    public func ingestPartial(_ sha256: String, size: Int) throws {
        let partial = partialPath(sha256)
        guard Self.isHash(sha256) else {
            throw MiniAppError(.invalidManifest, "\(sha256.prefix(80)) is not a SHA-256", field: "sha256")
        }
        let actual: (hash: String, size: Int)
        do { actual = try Self.hashFile(partial) } catch {
            throw MiniAppError(.storageFailed, "cannot read the download of \(sha256): \(error)", underlying: error)
        }
        guard actual.hash == sha256, actual.size == size else {
            unlink(partial)
            throw MiniAppError(
                .hashMismatch,
                "the downloaded bytes (\(actual.size) bytes, sha256 \(actual.hash.prefix(12))…) are not the file \(sha256.prefix(12))… of \(size) bytes",
                field: "sha256")
        }
        let destination = blobPath(sha256)
        do {
            // NB: no sync per file: the file is named now and made durable, with every other file named since,
            // by one sync of the file system before a release that uses it is recorded (``install``). Until then
            // the marker says files may not be durable, and a store opened after a crash re-verifies them.
            try locked {
                try markUnsynced()
                let directory = (destination as NSString).deletingLastPathComponent
                if mkdir(directory, 0o700) != 0, errno != EEXIST { try DurableFile.makeDirectory(directory, permissions: 0o700) }
                guard rename(partial, destination) == 0 else {
                    throw MiniAppError(.storageFailed, "cannot store \(sha256): \(String(cString: strerror(errno)))")
                }
            }
        } catch let error as MiniAppError {
            throw error
        } catch {
            throw MiniAppError(.storageFailed, "cannot store \(sha256): \(error)", underlying: error)
        }
    }

    /// The marker that files were named since the last sync of the file system.
    var unsyncedMarker: String { rootPath + "/blobs/.unsynced" }

    func markUnsynced() throws {
        guard access(unsyncedMarker, F_OK) != 0 else { return }
        let fd = open(unsyncedMarker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFile.failure("open", unsyncedMarker) }
        close(fd)
        try DurableFile.syncDirectory(of: unsyncedMarker)
    }

    /// Makes every file named since the last sync durable (one `syncfs` on Linux), then drops the marker.
    func syncNamedFiles(_ files: [ManifestFile]) throws {
        guard access(unsyncedMarker, F_OK) == 0 else { return }
        #if os(Linux)
            let fd = open(rootPath + "/blobs", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw DurableFile.failure("open", rootPath + "/blobs") }
            defer { close(fd) }
            guard linuxSyncfs(fd) == 0 else { throw DurableFile.failure("syncfs", rootPath) }
        #else
            for file in files {
                let fd = open(blobPath(file.sha256), O_RDONLY | O_CLOEXEC)
                if fd >= 0 {
                    fsync(fd)
                    close(fd)
                }
                try DurableFile.syncDirectory(of: blobPath(file.sha256))
            }
        #endif
        unlink(unsyncedMarker)
        try DurableFile.syncDirectory(of: unsyncedMarker)
    }

    /// After a crash while files were not yet durable: re-hashes every stored file and deletes those
    /// whose bytes are not their name, then syncs and drops the marker. A file that cannot be read
    /// is not known to be torn: it is kept, with the marker, and the store does not open
    /// (`storage_failed` naming `blobs/<hash>`), so a read error never deletes a good file.
    func recoverUnsyncedFiles() throws {
        guard access(unsyncedMarker, F_OK) == 0 else { return }
        for (hash, _) in try storedBlobs() {
            let actual: String
            do { actual = try Self.hashFile(blobPath(hash)).hash } catch {
                throw MiniAppError(
                    .storageFailed, "a stored file cannot be checked after a crash: \(error)", field: "blobs/\(hash)",
                    underlying: error)
            }
            if actual != hash { unlink(blobPath(hash)) }
        }
        try syncNamedFiles([])
    }

    // MARK: Installing and activating

    /// How an installed release becomes the one that runs.
    public enum Activation: Sendable, Hashable {
        /// Active from now on (the running page keeps its files until it reloads).
        case immediately
        /// Active at the app's next launch (the default, as Capgo and Expo do).
        case nextLaunch
    }

    /// Records a verified release whose files are all in the store, and activates it as asked.
    ///
    /// Refuses a version not above every installed release of the app (anti-rollback), a release
    /// marked bad, and a release with a file missing from the store.
    @discardableResult
    public func install(_ release: VerifiedRelease, activation: Activation) throws -> StoredApp {
        let appId = release.manifest.appId
        try Self.checkAppId(appId)
        return try locked {
            var app = try readApp(appId)
            guard !app.bad.contains(release.bundleHash) else {
                throw MiniAppError(
                    .releaseMarkedBad, "\(appId) \(release.manifest.version) failed to start before and is not installed again",
                    field: "bundleHash")
            }
            let installed = try installedReleasesUnlocked(appId)
            if !installed.contains(where: { $0.bundleHash == release.bundleHash }) {
                guard let version = release.version else {
                    throw MiniAppError(
                        .invalidManifest, "\(release.manifest.version) is not a version", field: "manifest.version")
                }
                if let newest = installed.compactMap({ SemanticVersion($0.version) }).max(), version <= newest {
                    throw MiniAppError(
                        .versionNotNewer,
                        "\(appId) \(version) is not above \(newest), already installed; only an explicit rollback goes back",
                        field: "manifest.version")
                }
            }
            let missing = release.manifest.files.filter { !hasBlob($0.sha256, size: $0.size) }
            guard missing.isEmpty else {
                throw MiniAppError(
                    .missingBlobs,
                    "\(missing.count) file(s) of the release are not in the store: "
                        + missing.prefix(5).map(\.path).joined(separator: ", "), field: "manifest.files")
            }
            try syncNamedFiles(release.manifest.files)
            let record = InstalledRelease(
                appId: appId, version: release.manifest.version, channel: release.manifest.channel,
                bundleHash: release.bundleHash, manifest: release.envelope.manifest, keyId: release.envelope.keyId,
                signature: release.envelope.signature, installedAt: Date())
            try writeJSON(record, to: releasePath(appId, release.bundleHash), directory: "\(appDirectory(appId))/releases")
            app.channel = release.manifest.channel
            var adopted = app.adopted ?? installed.map(\.bundleHash)
            let kept = Set(installed.map(\.bundleHash))
            adopted.removeAll { !kept.contains($0) }
            if !adopted.contains(release.bundleHash) { adopted.append(release.bundleHash) }
            app.adopted = adopted
            switch activation {
            case .immediately: Self.activate(&app, release.bundleHash)
            case .nextLaunch:
                if app.active == nil {
                    Self.activate(&app, release.bundleHash)
                } else if app.active != release.bundleHash {
                    app.pending = release.bundleHash
                }
            }
            try writeApp(app, appId)
            return app
        }
    }

    /// Makes an installed release active at once, on probation: an explicit rollback (or roll
    /// forward) to a release already in the store, also one marked bad.
    public func activate(appId: String, bundleHash: String) throws {
        try Self.checkAppId(appId)
        try locked {
            var app = try readApp(appId)
            guard try readRelease(appId, bundleHash) != nil else {
                throw MiniAppError(.notInstalled, "\(appId) has no installed release \(bundleHash)", field: "bundleHash")
            }
            app.bad.removeAll { $0 == bundleHash }
            if app.active != bundleHash { Self.activate(&app, bundleHash) }
            app.pending = nil
            try writeApp(app, appId)
        }
    }

    static func activate(_ app: inout StoredApp, _ bundleHash: String) {
        if let active = app.active, active != bundleHash { app.previous = active }
        app.active = bundleHash
        app.pending = nil
        app.probation = .init(bundleHash: bundleHash, launches: 0)
    }

    /// The release to open for a launch of `appId`, after applying what is due: a pending
    /// release becomes active (on probation), and an active release that already had a launch on
    /// probation without reporting ready — the app crashed or was killed before it was ready —
    /// is rolled back first. `nil` when nothing is installed.
    public func prepareLaunch(appId: String) throws -> LaunchableRelease? {
        try Self.checkAppId(appId)
        return try locked {
            var app = try readApp(appId)
            var changed = false
            if let pending = app.pending {
                let installed = try readRelease(appId, pending) != nil
                if app.bad.contains(pending) || !installed {
                    app.pending = nil
                } else {
                    Self.activate(&app, pending)
                }
                changed = true
            }
            if let probation = app.probation, probation.bundleHash == app.active, probation.launches >= 1 {
                Self.rollBack(&app, failing: probation.bundleHash)
                changed = true
            }
            if let probation = app.probation, probation.bundleHash == app.active {
                app.probation?.launches = probation.launches + 1
                changed = true
            }
            if changed { try writeApp(app, appId) }
            guard let active = app.active else { return nil }
            return try launchable(appId, active, onProbation: app.probation?.bundleHash == active)
        }
    }

    /// The active release without changing anything (nil when none).
    public func activeRelease(appId: String) throws -> LaunchableRelease? {
        try Self.checkAppId(appId)
        return try locked {
            let app = try readApp(appId)
            guard let active = app.active else { return nil }
            return try launchable(appId, active, onProbation: app.probation?.bundleHash == active)
        }
    }

    /// Ends the probation of `bundleHash`: it reported ready from its own document.
    public func confirmReady(appId: String, bundleHash: String) throws {
        try Self.checkAppId(appId)
        try locked {
            var app = try readApp(appId)
            guard app.probation?.bundleHash == bundleHash else { return }
            app.probation = nil
            try writeApp(app, appId)
        }
    }

    /// Marks `bundleHash` bad and, when it is active, goes back to the previous release; returns
    /// the release now active (nil when none is left).
    @discardableResult
    public func rollBack(appId: String, failing bundleHash: String) throws -> LaunchableRelease? {
        try Self.checkAppId(appId)
        return try locked {
            var app = try readApp(appId)
            Self.rollBack(&app, failing: bundleHash)
            try writeApp(app, appId)
            guard let active = app.active else { return nil }
            return try launchable(appId, active, onProbation: false)
        }
    }

    static func rollBack(_ app: inout StoredApp, failing bundleHash: String) {
        if !app.bad.contains(bundleHash) { app.bad.append(bundleHash) }
        if app.pending == bundleHash { app.pending = nil }
        if app.probation?.bundleHash == bundleHash { app.probation = nil }
        guard app.active == bundleHash else { return }
        let fallback = app.previous.flatMap { app.bad.contains($0) ? nil : $0 }
        app.active = fallback
        app.previous = nil
    }

    /// Sets the channel `appId` follows from its next update check on.
    public func setChannel(_ channel: String, appId: String) throws {
        try Self.checkAppId(appId)
        do { try ManifestRules.checkChannel(channel, field: "channel") } catch let error as BundleError {
            throw MiniAppError(.invalidArgument, "\"\(channel.prefix(32))\" is not a channel: \(error.message)", field: "channel")
        }
        try locked {
            var app = try readApp(appId)
            app.channel = channel
            try writeApp(app, appId)
        }
    }
}

#if os(Linux)
    // NB: glibc declares syncfs(2) only with _GNU_SOURCE, which the Glibc module does not set.
    @_silgen_name("syncfs")
    private func linuxSyncfs(_ fd: Int32) -> Int32
#endif
