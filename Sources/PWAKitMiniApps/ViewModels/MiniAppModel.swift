public import Observation
import PWAKitBundles
public import PWAKitCore

/// One mini-app being opened and run: installing it first when needed (with progress), the
/// release that runs, and what the ready rule decided.
@MainActor
@Observable
public final class MiniAppModel {
    /// Where the app stands.
    public enum State: Sendable, Hashable {
        /// Not opened yet.
        case idle
        /// Downloading and installing before the first launch.
        case installing(Updater.Progress)
        /// The release is being served; its page is loading.
        case loading(version: String)
        /// The release reported ready (or was already trusted).
        case ready(version: String)
        /// It could not be opened.
        case failed(String)
        /// The release did not become ready and was rolled back; the previous one runs next time.
        case rolledBack(version: String, reason: String)
    }

    /// The app.
    public let appId: String
    /// Where it stands.
    public private(set) var state: State = .idle
    /// The release being run, once opened.
    public private(set) var release: LaunchableRelease?

    /// Whether the release reported ready (or was already trusted).
    public var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    private let store: BundleStore
    private let updater: Updater
    private let readyDeadline: Duration
    @ObservationIgnored private var guardian: LaunchGuard?

    /// A model for `appId`.
    public init(appId: String, store: BundleStore, updater: Updater, readyDeadline: Duration = .seconds(10)) {
        self.appId = appId
        self.store = store
        self.updater = updater
        self.readyDeadline = readyDeadline
    }

    /// Installs the app when the store has none of it, then prepares the launch; returns the
    /// release to serve (nil when it failed; see ``state``).
    @discardableResult
    public func open(channel: String = "stable") async -> LaunchableRelease? {
        do {
            if try store.activeRelease(appId: appId) == nil, try store.app(appId).pending == nil {
                state = .installing(Updater.Progress(bytesDone: 0, bytesTotal: 0, filesDone: 0, filesTotal: 0))
                for try await event in updater.update(appId: appId, channel: channel, activation: .immediately) {
                    if case .progress(let progress) = event { state = .installing(progress) }
                }
            }
            guard let prepared = try store.prepareLaunch(appId: appId) else {
                state = .failed("\(appId) has no release that can be opened.")
                return nil
            }
            release = prepared
            guardian = LaunchGuard(store: store, release: prepared, deadline: readyDeadline)
            state =
                prepared.onProbation ? .loading(version: prepared.manifest.version) : .ready(version: prepared.manifest.version)
            return prepared
        } catch {
            state = .failed(LauncherModel.sentence(error))
            return nil
        }
    }

    /// A document of `origin` opened (the host's page event); returns what to schedule.
    public func documentOpened(_ load: PageLoadID, origin: String) -> ReadyWatch.Action {
        perform { try $0.documentOpened(load, origin: origin) }
    }

    /// A page load of `origin` reported ready.
    public func reportedReady(_ load: PageLoadID, origin: String) -> ReadyWatch.Action {
        perform { try $0.reportedReady(load, origin: origin) }
    }

    /// The deadline the host scheduled passed.
    public func deadlineElapsed() -> ReadyWatch.Action { perform { try $0.handle(.deadlineElapsed) } }

    /// The web process ended abnormally.
    public func webProcessTerminated() -> ReadyWatch.Action { perform { try $0.handle(.webProcessTerminated) } }

    private func perform(_ event: (LaunchGuard) throws -> ReadyWatch.Action) -> ReadyWatch.Action {
        guard let guardian, let release else { return .none }
        do {
            let action = try event(guardian)
            switch action {
            case .confirm: state = .ready(version: release.manifest.version)
            case .rollBack(let reason): state = .rolledBack(version: release.manifest.version, reason: reason)
            case .none, .startDeadline: break
            }
            return action
        } catch {
            state = .failed(LauncherModel.sentence(error))
            return .none
        }
    }
}
