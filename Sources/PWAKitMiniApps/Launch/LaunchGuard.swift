public import PWAKitCore
import Synchronization

/// Applies the ready rule to one launch of a release: feeds the host's page events to a
/// ``ReadyWatch`` and carries out what it decides on the store — a confirmed release leaves
/// probation; a failed one is marked bad and the previous release becomes active again.
public final class LaunchGuard: Sendable {
    /// The launched release.
    public let release: LaunchableRelease
    private let store: BundleStore
    private let watch: Mutex<ReadyWatch>

    /// Watches `release` (from ``BundleStore/prepareLaunch(appId:)``); a release not on probation
    /// is already trusted and the watch ignores every event.
    public init(store: BundleStore, release: LaunchableRelease, deadline: Duration = .seconds(10)) {
        self.store = store
        self.release = release
        self.watch = Mutex(release.onProbation ? ReadyWatch(deadline: deadline) : .confirmed(deadline: deadline))
    }

    /// The origin the release's documents have.
    public var origin: String { "app://\(release.appId)" }

    /// Where the watch stands.
    public var state: ReadyWatch.State { watch.withLock { $0.state } }

    /// A document of `origin` opened its bridge page load.
    public func documentOpened(_ load: PageLoadID, origin: String) throws -> ReadyWatch.Action {
        guard origin == self.origin else { return .none }
        return try handle(.documentLoaded(load))
    }

    /// A page load of `origin` called `lifecycle.ready`.
    public func reportedReady(_ load: PageLoadID, origin: String) throws -> ReadyWatch.Action {
        guard origin == self.origin else { return .none }
        return try handle(.ready(load))
    }

    /// Feeds one event and applies the result to the store; returns it for the host (timers, messages).
    @discardableResult
    public func handle(_ event: ReadyWatch.Event) throws -> ReadyWatch.Action {
        let action = watch.withLock { $0.handle(event) }
        switch action {
        case .confirm: try store.confirmReady(appId: release.appId, bundleHash: release.bundleHash)
        case .rollBack: try store.rollBack(appId: release.appId, failing: release.bundleHash)
        case .none, .startDeadline: break
        }
        return action
    }
}
