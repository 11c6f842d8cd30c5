import Foundation
import PWAKitFiles
import PWAKitFlags
import PWAKitMiniApps

/// A mini-app's feature flags as its host serves them (`flags` module): no defaults of the host's
/// own, the server's values for the app cached in the store (`flags/<appId>.json`), refreshed in the
/// background when someone is signed in.
enum MiniAppFlags {
    static func store(for appId: String, in store: BundleStore, account: AccountSession?) -> FeatureFlagStore {
        let folder = store.root.appendingPathComponent("flags")
        try? DurableFile.makeDirectory(folder.path, permissions: 0o700)
        let flags = FeatureFlagStore(defaults: [:], cacheFile: folder.appendingPathComponent("\(appId).json"))
        if let account {
            Task {
                // NB: offline or signed out the cached values stay in force; the page reads them meanwhile.
                try? await account.authorized { token in
                    try await flags.refresh(using: account.client, appId: appId, accessToken: token)
                }
            }
        }
        return flags
    }
}
