import Foundation
public import PWAKitAPI
import PWAKitBundles
import Synchronization

/// Anything that hands out a valid access token (the account session does).
public protocol AccessTokenSource: Sendable {
    /// A token valid for at least a little while; refreshed as needed.
    func accessToken() async throws -> String
}

/// Keeps mini-apps up to date: asks the server for the newest release of an app's channel,
/// verifies it against the device's pinned publisher keys, refuses anything older than what is
/// installed, downloads only the files the store lacks (several at once, resuming partial
/// ones) and installs it crash-safely.
public struct Updater: Sendable {
    /// The server.
    public let client: APIClient
    /// The store releases go into.
    public let store: BundleStore
    /// The pinned publisher keys.
    public let trust: PublisherTrust
    /// Where access tokens come from.
    public let tokens: any AccessTokenSource
    /// Files downloaded at once.
    public var concurrency: Int
    /// Bytes per range request.
    public var chunkSize: Int

    /// Creates an updater.
    public init(
        client: APIClient, store: BundleStore, trust: PublisherTrust, tokens: any AccessTokenSource, concurrency: Int = 4,
        chunkSize: Int = 1 << 20
    ) {
        self.client = client
        self.store = store
        self.trust = trust
        self.tokens = tokens
        self.concurrency = max(1, concurrency)
        self.chunkSize = max(1, chunkSize)
    }

    /// What a check found.
    public enum Check: Sendable, Hashable {
        /// The newest release the server offers this device is installed (or older).
        case upToDate
        /// A newer release, verified, not yet installed.
        case available(VerifiedRelease)
    }

    /// How far an update is.
    public struct Progress: Sendable, Hashable {
        /// Bytes of the files to fetch that are on disk.
        public var bytesDone: Int
        /// Bytes of the files the store lacked when the update began.
        public var bytesTotal: Int
        /// Files fetched.
        public var filesDone: Int
        /// Files the store lacked.
        public var filesTotal: Int

        /// Creates a progress report.
        public init(bytesDone: Int, bytesTotal: Int, filesDone: Int, filesTotal: Int) {
            self.bytesDone = bytesDone
            self.bytesTotal = bytesTotal
            self.filesDone = filesDone
            self.filesTotal = filesTotal
        }
    }

    /// What an update reports as it goes.
    public enum Event: Sendable, Hashable {
        /// Bytes arrived.
        case progress(Progress)
        /// The release is installed; the state of the app afterwards.
        case installed(VerifiedRelease, StoredApp)
        /// Nothing to do.
        case upToDate
    }

    /// Asks the server for the newest release of `channel` and verifies it.
    public func check(appId: String, channel: String) async throws -> Check {
        let newest = try store.installedReleases(appId: appId).compactMap { SemanticVersion($0.version) }.max()
        let answer = try await client.latestRelease(
            appId: appId, channel: channel, current: newest?.description, accessToken: try await tokens.accessToken())
        guard !answer.upToDate, let offered = answer.release else { return .upToDate }
        let release = try trust.verify(
            SignedRelease(manifest: offered.manifest, keyId: offered.keyId, signature: offered.signature), appId: appId)
        guard release.bundleHash == offered.bundleHash else {
            throw MiniAppError(
                .invalidManifest, "the server's bundle hash does not match the manifest's bytes", field: "bundleHash")
        }
        guard release.manifest.channel == channel else {
            throw MiniAppError(
                .invalidManifest, "the release is for channel \(release.manifest.channel), not \(channel)",
                field: "manifest.channel")
        }
        if let newest, let version = release.version, version <= newest {
            throw MiniAppError(
                .versionNotNewer, "the server offers \(appId) \(version), not above \(newest) which is installed",
                field: "manifest.version")
        }
        if try store.app(appId).bad.contains(release.bundleHash) { return .upToDate }
        return .available(release)
    }

    /// The newest installed release of `appId` when an install of it was interrupted after its
    /// record was written and before the app's state took it in (a kill between the two writes):
    /// not in the state's ``StoredApp/adopted`` list, nor marked bad. Verified again against the
    /// pinned keys, as any release is before it is installed.
    func interruptedInstall(appId: String) throws -> VerifiedRelease? {
        guard let newest = try store.installedReleases(appId: appId).first else { return nil }
        let app = try store.app(appId)
        guard let adopted = app.adopted, !adopted.contains(newest.bundleHash), !app.bad.contains(newest.bundleHash)
        else { return nil }
        return try trust.verify(
            SignedRelease(manifest: newest.manifest, keyId: newest.keyId, signature: newest.signature), appId: appId)
    }

    /// Downloads what `release` needs and installs it; `progress` is called as bytes arrive.
    @discardableResult
    public func install(
        _ release: VerifiedRelease, activation: BundleStore.Activation = .nextLaunch,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> StoredApp {
        var needed: [String: ManifestFile] = [:]
        for file in release.manifest.files where !store.hasBlob(file.sha256, size: file.size) { needed[file.sha256] = file }
        let files = needed.values.sorted { $0.size > $1.size }
        let counter = ProgressCounter(
            Progress(bytesDone: 0, bytesTotal: files.reduce(0) { $0 + $1.size }, filesDone: 0, filesTotal: files.count))
        progress(counter.current)
        let downloader = BlobDownloader(client: client, store: store, chunkSize: chunkSize)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var queue = files[...]
            for _ in 0..<concurrency {
                guard let file = queue.popFirst() else { break }
                group.addTask { try await Self.fetch(file, downloader, counter, progress) }
            }
            while try await group.next() != nil {
                guard let file = queue.popFirst() else { continue }
                group.addTask { try await Self.fetch(file, downloader, counter, progress) }
            }
        }
        return try store.install(release, activation: activation)
    }

    private static func fetch(
        _ file: ManifestFile, _ downloader: BlobDownloader, _ counter: ProgressCounter,
        _ progress: @escaping @Sendable (Progress) -> Void
    ) async throws {
        try await downloader.fetch(file) { bytes in progress(counter.update { $0.bytesDone += bytes }) }
        progress(counter.update { $0.filesDone += 1 })
    }

    /// Checks and, when a newer release is offered, installs it, reporting as it goes.
    public func update(appId: String, channel: String, activation: BundleStore.Activation = .nextLaunch)
        -> AsyncThrowingStream<Event, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    switch try await check(appId: appId, channel: channel) {
                    case .upToDate:
                        if let interrupted = try interruptedInstall(appId: appId) {
                            // A release whose files and record were stored, but whose install was
                            // killed before the app's state named it: finish that install.
                            let app = try store.install(interrupted, activation: activation)
                            continuation.yield(.installed(interrupted, app))
                        } else {
                            continuation.yield(.upToDate)
                        }
                    case .available(let release):
                        let app = try await install(release, activation: activation) { continuation.yield(.progress($0)) }
                        continuation.yield(.installed(release, app))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The progress of one update, shared by its concurrent downloads.
private final class ProgressCounter: Sendable {
    private let state: Mutex<Updater.Progress>
    init(_ initial: Updater.Progress) { state = Mutex(initial) }
    var current: Updater.Progress { state.withLock { $0 } }
    func update(_ change: (inout Updater.Progress) -> Void) -> Updater.Progress {
        state.withLock { value in
            change(&value)
            return value
        }
    }
}
