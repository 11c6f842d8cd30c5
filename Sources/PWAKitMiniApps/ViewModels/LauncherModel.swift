import Foundation
public import Observation
import PWAKitAPI

/// The launcher grid: the catalog joined with the store, pull to refresh, update checks with
/// progress per app, the offline banner and errors as states.
@MainActor
@Observable
public final class LauncherModel {
    /// What the grid shows.
    public enum Content: Sendable, Hashable {
        /// Nothing yet; the first load is on its way.
        case loading
        /// The apps (possibly from the kept copy; see ``isOffline``).
        case apps([CatalogEntry])
        /// No catalog could be had (never fetched and the server unreachable).
        case failed(String)
    }

    /// The grid.
    public private(set) var content: Content = .loading
    /// Whether the apps shown are the kept copy because the server cannot be reached.
    public private(set) var isOffline = false
    /// Whether a refresh is on its way.
    public private(set) var isRefreshing = false
    /// Progress of installs and updates under way, per app id.
    public private(set) var progress: [String: Updater.Progress] = [:]
    /// The last failure of an install or update, per app id.
    public private(set) var failures: [String: String] = [:]

    private let catalog: CatalogStore
    private let store: BundleStore
    private let updater: Updater
    @ObservationIgnored private var available: [String: VerifiedRelease] = [:]

    /// A launcher over a catalog, a store and an updater.
    public init(catalog: CatalogStore, store: BundleStore, updater: Updater) {
        self.catalog = catalog
        self.store = store
        self.updater = updater
    }

    /// The entries shown, empty while loading or failed.
    public var entries: [CatalogEntry] {
        if case .apps(let entries) = content { entries } else { [] }
    }

    /// Fetches the catalog (conditionally) and checks every installed app for an update.
    public func refresh() async {
        guard !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        let snapshot: CatalogSnapshot
        do {
            snapshot = try await catalog.refresh()
        } catch {
            if case .apps = content { isOffline = true } else { content = .failed(Self.sentence(error)) }
            return
        }
        isOffline = snapshot.isStale
        if !snapshot.isStale {
            for app in snapshot.apps where (try? store.activeRelease(appId: app.id)) != nil {
                let channel = (try? store.app(app.id))?.channel ?? app.channels.first ?? "stable"
                if case .available(let release)? = try? await updater.check(appId: app.id, channel: channel) {
                    available[app.id] = release
                } else {
                    available[app.id] = nil
                }
            }
        }
        show(snapshot)
    }

    /// Installs the app, or its update; progress shows in ``progress``. New apps become active at
    /// once, updates at the app's next launch.
    public func install(_ appId: String) async {
        guard progress[appId] == nil, let entry = entries.first(where: { $0.id == appId }) else { return }
        failures[appId] = nil
        progress[appId] = Updater.Progress(bytesDone: 0, bytesTotal: 0, filesDone: 0, filesTotal: 0)
        defer { progress[appId] = nil }
        let activation: BundleStore.Activation = entry.installedVersion == nil ? .immediately : .nextLaunch
        do {
            for try await event in updater.update(appId: appId, channel: entry.channel, activation: activation) {
                if case .progress(let value) = event { progress[appId] = value }
            }
            available[appId] = nil
            if let snapshot = try await catalog.cached() { show(snapshot) }
        } catch {
            failures[appId] = Self.sentence(error)
        }
    }

    /// Joins the kept catalog with the store again, without asking the server (after the store
    /// changed: an app opened, cleared or rolled back).
    public func reload() async {
        do {
            guard let snapshot = try await catalog.cached() else { return }
            show(snapshot)
        } catch {
            // NB: a kept copy that cannot be read says so, as refresh() would.
            content = .failed(Self.sentence(error))
        }
    }

    private func show(_ snapshot: CatalogSnapshot) {
        do {
            content = .apps(try CatalogEntry.entries(catalog: snapshot, store: store, available: available))
        } catch {
            content = .failed(Self.sentence(error))
        }
    }

    static func sentence(_ error: any Error) -> String {
        switch error {
        case let error as APIClientError where error.isTransient: "The server cannot be reached."
        case let error as APIClientError: error.message
        case let error as MiniAppError: error.message
        default: "\(error)"
        }
    }
}
