public import Observation
public import PWAKitAPI

/// Settings: the account, the space each app takes and clearing it, the channel of apps with
/// several, and signing out.
@MainActor
@Observable
public final class SettingsModel {
    /// Who is signed in.
    public private(set) var user: UserResponse?
    /// Bytes per app id, and in all.
    public private(set) var bytesByApp: [String: Int] = [:]
    /// The bytes of every stored file, each counted once.
    public private(set) var totalBytes = 0
    /// The last failure, as a sentence.
    public private(set) var error: String?

    private let account: AccountSession
    private let store: BundleStore
    private let catalog: CatalogStore

    /// Settings over the account, the store and the kept catalog.
    public init(account: AccountSession, store: BundleStore, catalog: CatalogStore) {
        self.account = account
        self.store = store
        self.catalog = catalog
    }

    /// Reads the account and the store's sizes.
    public func load() async {
        user = await account.state.user
        do {
            let usage = try store.usage()
            bytesByApp = usage.bytesByApp
            totalBytes = usage.totalBytes
            error = nil
        } catch {
            self.error = LauncherModel.sentence(error)
        }
    }

    /// Removes one app's releases and the files no other app uses.
    public func clear(_ appId: String) async {
        do { try store.clear(appId: appId) } catch { self.error = LauncherModel.sentence(error) }
        await load()
    }

    /// Removes every app.
    public func clearAll() async {
        do { try store.clearAll() } catch { self.error = LauncherModel.sentence(error) }
        await load()
    }

    /// Follows another channel of an app from its next update check on.
    public func setChannel(_ channel: String, for appId: String) async {
        do { try store.setChannel(channel, appId: appId) } catch { self.error = LauncherModel.sentence(error) }
    }

    /// Signs out (revoked on the server) and forgets the kept catalog.
    public func signOut() async {
        var failure: String?
        do { try await account.signOut() } catch { failure = LauncherModel.sentence(error) }
        try? await catalog.clear()
        await load()
        if let failure { error = failure }
    }
}
