import Crypto
import Foundation
import PWAKitBundles
import PWAKitFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the store holds, and keeping it in shape: reading, clearing, quota, garbage collection, integrity.
extension BundleStore {
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
                // NB: each record read on its own: one that cannot be read is a problem, and the
                // others are still checked.
                let hashes: [String]
                do { hashes = try releaseRecordHashes(appId) } catch {
                    problems.append("\(appId): installed releases cannot be listed: \(error)")
                    continue
                }
                var releases: [InstalledRelease] = []
                for hash in hashes.sorted() {
                    do {
                        if let release = try readRelease(appId, hash) { releases.append(release) }
                    } catch { problems.append("\(appId): the record of release \(hash) cannot be read: \(error)") }
                }
                for release in releases {
                    do {
                        let manifest = try manifest(of: release)
                        for file in manifest.files {
                            let path = blobPath(file.sha256)
                            guard Self.fileSize(path) == file.size else {
                                problems.append("\(appId) \(release.version): \(file.path) missing or wrong size")
                                continue
                            }
                            guard verifyContents else { continue }
                            do {
                                if try Self.hashFile(path).hash != file.sha256 {
                                    problems.append("\(appId) \(release.version): \(file.path) content does not match")
                                }
                            } catch {
                                problems.append("\(appId) \(release.version): \(file.path) cannot be read: \(error)")
                            }
                        }
                    } catch { problems.append("\(appId) \(release.bundleHash): \(error)") }
                }
            }
            return problems
        }
    }
}
