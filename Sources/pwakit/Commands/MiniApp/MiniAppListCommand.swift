import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps

/// `pwakit miniapp list`: the catalog, with what the store has installed.
struct MiniAppListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the server's mini-apps and the versions installed in the store."
    )

    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        try await CommandFailure.run {
            let store = try storeOptions.open()
            let session = try await account.signIn()
            let cacheDirectory = store.root.appendingPathComponent("catalog")
            let catalog = try await CatalogStore(client: session.client, tokens: session, directory: cacheDirectory).refresh()
            for app in catalog.apps {
                let installed = try store.activeRelease(appId: app.id)?.manifest.version ?? "not installed"
                print("\(app.id)\t\(app.name)\t\(installed)\tchannels: \(app.channels.joined(separator: ","))")
            }
            if catalog.isStale { Console.writeError("offline: this is the copy from \(catalog.fetchedAt)") }
        }
    }
}
