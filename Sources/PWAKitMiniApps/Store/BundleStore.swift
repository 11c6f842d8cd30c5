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
    private let lock: FileLock

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
    private var unsyncedMarker: String { rootPath + "/blobs/.unsynced" }

    private func markUnsynced() throws {
        guard access(unsyncedMarker, F_OK) != 0 else { return }
        let fd = open(unsyncedMarker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFile.failure("open", unsyncedMarker) }
        close(fd)
        try DurableFile.syncDirectory(of: unsyncedMarker)
    }

    /// Makes every file named since the last sync durable (one `syncfs` on Linux), then drops the marker.
    private func syncNamedFiles(_ files: [ManifestFile]) throws {
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
    /// whose bytes are not their name, then syncs and drops the marker.
    private func recoverUnsyncedFiles() throws {
        guard access(unsyncedMarker, F_OK) == 0 else { return }
        for (hash, _) in try storedBlobs() where (try? Self.hashFile(blobPath(hash)).hash) != hash {
            unlink(blobPath(hash))
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

    private static func activate(_ app: inout StoredApp, _ bundleHash: String) {
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

    private static func rollBack(_ app: inout StoredApp, failing bundleHash: String) {
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

    // MARK: Reading

    /// What the store keeps for `appId` (empty when nothing was installed).
    public func app(_ appId: String) throws -> StoredApp {
        try Self.checkAppId(appId)
        return try locked { try readApp(appId) }
    }

    /// The apps with anything installed.
    public func appIds() throws -> [String] {
        try locked { try appIdsUnlocked() }
    }

    /// The installed releases of `appId`, newest version first.
    public func installedReleases(appId: String) throws -> [InstalledRelease] {
        try Self.checkAppId(appId)
        return try locked { try installedReleasesUnlocked(appId) }
    }

    /// The bytes each app uses, the total and what interrupted downloads hold.
    public func usage() throws -> StoreUsage {
        try locked {
            var bytesByApp: [String: Int] = [:]
            for appId in try appIdsUnlocked() {
                var hashes: [String: Int] = [:]
                for release in try installedReleasesUnlocked(appId) {
                    for file in try manifest(of: release).files { hashes[file.sha256] = file.size }
                }
                bytesByApp[appId] = hashes.values.reduce(0, +)
            }
            let total = try storedBlobs().reduce(0) { $0 + $1.size }
            let partial = try Self.entries(of: rootPath + "/partial").reduce(0) {
                $0 + (Self.fileSize("\(rootPath)/partial/\($1)") ?? 0)
            }
            return StoreUsage(bytesByApp: bytesByApp, totalBytes: total, partialBytes: partial)
        }
    }

    // MARK: Clearing, quota, garbage collection

    /// Removes every release of `appId` and the files no other app references.
    @discardableResult
    public func clear(appId: String) throws -> CollectionReport {
        try Self.checkAppId(appId)
        return try locked {
            try removeTree(appDirectory(appId))
            return try collectGarbageUnlocked()
        }
    }

    /// Removes every app, file and interrupted download.
    public func clearAll() throws {
        try locked {
            for appId in try appIdsUnlocked() { try removeTree(appDirectory(appId)) }
            for name in try Self.entries(of: rootPath + "/partial") { unlink("\(rootPath)/partial/\(name)") }
            _ = try collectGarbageUnlocked()
        }
    }

    /// Deletes the files that no installed release references; interrupted downloads stay.
    @discardableResult
    public func collectGarbage() throws -> CollectionReport {
        try locked { try collectGarbageUnlocked() }
    }

    /// Evicts releases that are neither active, pending nor the rollback target, oldest first,
    /// until the stored files fit in `maximumBytes`; returns the evicted releases.
    @discardableResult
    public func enforceQuota(maximumBytes: Int) throws -> [InstalledRelease] {
        try locked {
            var evicted: [InstalledRelease] = []
            var total = try storedBlobs().reduce(0) { $0 + $1.size }
            guard total > maximumBytes else { return [] }
            var candidates: [InstalledRelease] = []
            for appId in try appIdsUnlocked() {
                let app = try readApp(appId)
                let kept = Set([app.active, app.pending, app.previous].compactMap { $0 })
                candidates += try installedReleasesUnlocked(appId).filter { !kept.contains($0.bundleHash) }
            }
            // NB: installation times are kept to the second; the version breaks ties, older first.
            let order = candidates.sorted {
                ($0.installedAt, SemanticVersion($0.version)?.orderingKey ?? -1)
                    < ($1.installedAt, SemanticVersion($1.version)?.orderingKey ?? -1)
            }
            for release in order where total > maximumBytes {
                unlink(releasePath(release.appId, release.bundleHash))
                evicted.append(release)
                total -= try collectGarbageUnlocked().freedBytes
            }
            return evicted
        }
    }

    // MARK: Integrity

    /// Every way the store is not consistent: an active, pending or previous pointer without its
    /// release, a release whose manifest does not hash to its name, a referenced file missing or of
    /// the wrong size (or content, with `verifyContents`). Empty for a healthy store.
    public func integrityProblems(verifyContents: Bool = false) throws -> [String] {
        try locked {
            var problems: [String] = []
            for appId in try appIdsUnlocked() {
                let app: StoredApp
                do { app = try readApp(appId) } catch {
                    problems.append("\(appId): state unreadable: \(error)")
                    continue
                }
                for (name, hash) in [("active", app.active), ("pending", app.pending), ("previous", app.previous)] {
                    guard let hash else { continue }
                    do {
                        guard try readRelease(appId, hash) != nil else {
                            problems.append("\(appId): \(name) release \(hash) is not installed")
                            continue
                        }
                    } catch { problems.append("\(appId): \(name) release \(hash): \(error)") }
                }
                for release in (try? installedReleasesUnlocked(appId)) ?? [] {
                    do {
                        let manifest = try manifest(of: release)
                        for file in manifest.files {
                            let path = blobPath(file.sha256)
                            guard Self.fileSize(path) == file.size else {
                                problems.append("\(appId) \(release.version): \(file.path) missing or wrong size")
                                continue
                            }
                            if verifyContents, (try? Self.hashFile(path).hash) != file.sha256 {
                                problems.append("\(appId) \(release.version): \(file.path) content does not match")
                            }
                        }
                    } catch { problems.append("\(appId) \(release.bundleHash): \(error)") }
                }
            }
            return problems
        }
    }

    // MARK: Internals (called holding the lock)

    func locked<T>(_ body: () throws -> T) throws -> T {
        do {
            return try lock.withExclusiveLock { () throws -> T in try body() }
        } catch let error as MiniAppError {
            throw error
        } catch {
            throw MiniAppError(.storageFailed, "the store at \(rootPath) failed: \(error)", underlying: error)
        }
    }

    private func appDirectory(_ appId: String) -> String { "\(rootPath)/apps/\(appId)" }
    private func releasePath(_ appId: String, _ hash: String) -> String { "\(appDirectory(appId))/releases/\(hash).json" }

    private func readApp(_ appId: String) throws -> StoredApp {
        guard let data = try DurableFile.contents(of: "\(appDirectory(appId))/state.json") else { return StoredApp() }
        do { return try Self.decoder.decode(StoredApp.self, from: data) } catch {
            throw MiniAppError(
                .storeCorrupt, "\(appId)'s state file cannot be read", field: "apps.\(appId).state", underlying: error)
        }
    }

    private func writeApp(_ app: StoredApp, _ appId: String) throws {
        try writeJSON(app, to: "\(appDirectory(appId))/state.json", directory: appDirectory(appId))
    }

    private func writeJSON(_ value: some Encodable, to path: String, directory: String) throws {
        try DurableFile.makeDirectory(directory, permissions: 0o700)
        try DurableFile.replace(path, with: try Self.encoder.encode(value), permissions: 0o600)
    }

    private func readRelease(_ appId: String, _ hash: String) throws -> InstalledRelease? {
        guard Self.isHash(hash), let data = try DurableFile.contents(of: releasePath(appId, hash)) else { return nil }
        let release: InstalledRelease
        do { release = try Self.decoder.decode(InstalledRelease.self, from: data) } catch {
            throw MiniAppError(.storeCorrupt, "the record of \(appId) release \(hash) cannot be read", underlying: error)
        }
        guard release.bundleHash == hash, release.appId == appId else {
            throw MiniAppError(.storeCorrupt, "the record of \(appId) release \(hash) names another release")
        }
        return release
    }

    private func manifest(of release: InstalledRelease) throws -> ReleaseManifest {
        guard let bytes = Data(base64Encoded: release.manifest), SHA256.hex(of: bytes) == release.bundleHash else {
            throw MiniAppError(.storeCorrupt, "the manifest of \(release.appId) \(release.version) does not hash to its name")
        }
        do { return try ManifestCoding.decode(bytes) } catch {
            throw MiniAppError(
                .storeCorrupt, "the manifest of \(release.appId) \(release.version) is malformed", underlying: error)
        }
    }

    private func launchable(_ appId: String, _ hash: String, onProbation: Bool) throws -> LaunchableRelease {
        guard let release = try readRelease(appId, hash) else {
            throw MiniAppError(.notInstalled, "\(appId)'s active release \(hash) is missing from the store")
        }
        return LaunchableRelease(
            appId: appId, bundleHash: hash, manifest: try manifest(of: release), onProbation: onProbation,
            blobRoot: rootPath + "/blobs")
    }

    private func appIdsUnlocked() throws -> [String] {
        try Self.entries(of: rootPath + "/apps").filter { (try? Self.checkAppId($0)) != nil }.sorted()
    }

    private func installedReleasesUnlocked(_ appId: String) throws -> [InstalledRelease] {
        let names = try Self.entries(of: "\(appDirectory(appId))/releases").filter { $0.hasSuffix(".json") }
        let releases = try names.compactMap { try readRelease(appId, String($0.dropLast(5))) }
        return releases.sorted {
            (SemanticVersion($0.version)?.orderingKey ?? -1) > (SemanticVersion($1.version)?.orderingKey ?? -1)
        }
    }

    private func storedBlobs() throws -> [(hash: String, size: Int)] {
        var blobs: [(String, Int)] = []
        for prefix in try Self.entries(of: rootPath + "/blobs") where prefix.utf8.count == 2 {
            for name in try Self.entries(of: "\(rootPath)/blobs/\(prefix)") where Self.isHash(name) {
                blobs.append((name, Self.fileSize("\(rootPath)/blobs/\(prefix)/\(name)") ?? 0))
            }
        }
        return blobs
    }

    private func collectGarbageUnlocked() throws -> CollectionReport {
        var referenced: Set<String> = []
        for appId in try appIdsUnlocked() {
            for release in try installedReleasesUnlocked(appId) {
                referenced.formUnion(try manifest(of: release).files.map(\.sha256))
            }
        }
        var report = CollectionReport(removedBlobs: [], freedBytes: 0)
        for (hash, size) in try storedBlobs() where !referenced.contains(hash) {
            if unlink(blobPath(hash)) == 0 {
                report.removedBlobs.append(hash)
                report.freedBytes += size
            }
        }
        report.removedBlobs.sort()
        return report
    }

    /// Removes the temporary files of writes that never reached their rename.
    private func sweepTemporaryFiles() throws {
        for appId in try appIdsUnlocked() {
            for directory in [appDirectory(appId), "\(appDirectory(appId))/releases"] {
                for name in try Self.entries(of: directory) where name.hasSuffix(".tmp") { unlink("\(directory)/\(name)") }
            }
        }
    }

    private func removeTree(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        // NB: the state file goes first, in one rename-free unlink, so a crash mid-removal leaves
        // an app with no active release rather than one pointing at removed records.
        unlink(path + "/state.json")
        try DurableFile.syncDirectory(of: path + "/state.json")
        try FileManager.default.removeItem(atPath: path)
    }

    static func entries(of directory: String) throws -> [String] {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw MiniAppError(.storageFailed, "cannot list \(directory): \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// SHA-256 and size of a file, read in 64 KiB chunks.
    static func hashFile(_ path: String) throws -> (hash: String, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MiniAppError(.storageFailed, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var hasher = SHA256()
        var size = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MiniAppError(.storageFailed, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            chunk.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            size += n
        }
        return (hasher.finalize().hexString, size)
    }

    static func isHash(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func checkAppId(_ appId: String) throws {
        do { try ManifestRules.checkAppId(appId, field: "appId") } catch let error as BundleError {
            throw MiniAppError(.invalidArgument, "\"\(appId.prefix(64))\" is not an app id: \(error.message)", field: "appId")
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

#if os(Linux)
    // NB: glibc declares syncfs(2) only with _GNU_SOURCE, which the Glibc module does not set.
    @_silgen_name("syncfs")
    private func linuxSyncfs(_ fd: Int32) -> Int32
#endif
