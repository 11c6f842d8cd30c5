import Crypto
import Foundation
import PWAKitBundles
import PWAKitFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's files and records, read and written holding the lock.
extension BundleStore {
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

    func appDirectory(_ appId: String) -> String { "\(rootPath)/apps/\(appId)" }
    func releasePath(_ appId: String, _ hash: String) -> String { "\(appDirectory(appId))/releases/\(hash).json" }

    func readApp(_ appId: String) throws -> StoredApp {
        guard let data = try DurableFile.contents(of: "\(appDirectory(appId))/state.json") else { return StoredApp() }
        do { return try Self.decoder.decode(StoredApp.self, from: data) } catch {
            throw MiniAppError(
                .storeCorrupt, "\(appId)'s state file cannot be read", field: "apps.\(appId).state", underlying: error)
        }
    }

    func writeApp(_ app: StoredApp, _ appId: String) throws {
        try writeJSON(app, to: "\(appDirectory(appId))/state.json", directory: appDirectory(appId))
    }

    func writeJSON(_ value: some Encodable, to path: String, directory: String) throws {
        try DurableFile.makeDirectory(directory, permissions: 0o700)
        try DurableFile.replace(path, with: try Self.encoder.encode(value), permissions: 0o600)
    }

    func readRelease(_ appId: String, _ hash: String) throws -> InstalledRelease? {
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

    func manifest(of release: InstalledRelease) throws -> ReleaseManifest {
        guard let bytes = Data(base64Encoded: release.manifest), SHA256.hex(of: bytes) == release.bundleHash else {
            throw MiniAppError(.storeCorrupt, "the manifest of \(release.appId) \(release.version) does not hash to its name")
        }
        do { return try ManifestCoding.decode(bytes) } catch {
            throw MiniAppError(
                .storeCorrupt, "the manifest of \(release.appId) \(release.version) is malformed", underlying: error)
        }
    }

    func launchable(_ appId: String, _ hash: String, onProbation: Bool) throws -> LaunchableRelease {
        guard let release = try readRelease(appId, hash) else {
            throw MiniAppError(.notInstalled, "\(appId)'s active release \(hash) is missing from the store")
        }
        return LaunchableRelease(
            appId: appId, bundleHash: hash, manifest: try manifest(of: release), onProbation: onProbation,
            blobRoot: rootPath + "/blobs")
    }

    func appIdsUnlocked() throws -> [String] {
        try Self.entries(of: rootPath + "/apps").filter { (try? Self.checkAppId($0)) != nil }.sorted()
    }

    /// The bundle hashes `appId` has release records for (`releases/<hash>.json`).
    func releaseRecordHashes(_ appId: String) throws -> [String] {
        try Self.entries(of: "\(appDirectory(appId))/releases").filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    func installedReleasesUnlocked(_ appId: String) throws -> [InstalledRelease] {
        let releases = try releaseRecordHashes(appId).compactMap { try readRelease(appId, $0) }
        return releases.sorted {
            (SemanticVersion($0.version)?.orderingKey ?? -1) > (SemanticVersion($1.version)?.orderingKey ?? -1)
        }
    }

    func storedBlobs() throws -> [(hash: String, size: Int)] {
        var blobs: [(String, Int)] = []
        for prefix in try Self.entries(of: rootPath + "/blobs") where prefix.utf8.count == 2 {
            for name in try Self.entries(of: "\(rootPath)/blobs/\(prefix)") where Self.isHash(name) {
                blobs.append((name, Self.fileSize("\(rootPath)/blobs/\(prefix)/\(name)") ?? 0))
            }
        }
        return blobs
    }

    func collectGarbageUnlocked() throws -> CollectionReport {
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
    func sweepTemporaryFiles() throws {
        for appId in try appIdsUnlocked() {
            for directory in [appDirectory(appId), "\(appDirectory(appId))/releases"] {
                for name in try Self.entries(of: directory) where name.hasSuffix(".tmp") { unlink("\(directory)/\(name)") }
            }
        }
    }

    func removeTree(_ path: String) throws {
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
