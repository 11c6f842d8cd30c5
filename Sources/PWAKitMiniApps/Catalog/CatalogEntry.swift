public import PWAKitAPI
import PWAKitBundles

/// One mini-app as a launcher shows it: the catalog's entry joined with what the store holds and
/// what the last update check found.
public struct CatalogEntry: Sendable, Hashable, Identifiable {
    /// The catalog's entry: id, name, icon, description, permissions, channels.
    public var app: AppResponse
    /// The channel the app follows: the one its installed release came from, else the catalog's first.
    public var channel: String
    /// The version that runs at the next launch (the active one, or a pending one).
    public var installedVersion: String?
    /// A release installed to become active at the next launch.
    public var pendingVersion: String?
    /// A newer release the last check found and that is not installed yet.
    public var availableVersion: String?
    /// Releases that failed to become ready and were rolled back.
    public var rolledBackCount: Int
    /// The bytes of the files the app's installed releases reference.
    public var bytes: Int

    /// The app id.
    public var id: String { app.id }

    /// Whether there is anything newer to install or activate.
    public var updateAvailable: Bool { pendingVersion != nil || availableVersion != nil }

    /// The entries for every app of `catalog`, in its order; `available` holds the newest verified
    /// release each update check found, by app id.
    public static func entries(
        catalog: CatalogSnapshot, store: BundleStore, available: [String: VerifiedRelease] = [:]
    ) throws -> [CatalogEntry] {
        let usage = try store.usage()
        return try catalog.apps.map { app in
            let stored = try store.app(app.id)
            let releases = try store.installedReleases(appId: app.id)
            func version(_ hash: String?) -> String? { releases.first { $0.bundleHash == hash }?.version }
            let pending = version(stored.pending)
            return CatalogEntry(
                app: app, channel: stored.channel ?? app.channels.first ?? "stable",
                installedVersion: pending ?? version(stored.active), pendingVersion: pending,
                availableVersion: available[app.id].map(\.manifest.version), rolledBackCount: stored.bad.count,
                bytes: usage.bytesByApp[app.id] ?? 0)
        }
    }
}
