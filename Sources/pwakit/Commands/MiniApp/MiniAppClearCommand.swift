import ArgumentParser
import Foundation
import PWAKitMiniApps

/// `pwakit miniapp clear`: removes an app (or all), evicts to a quota, collects garbage.
struct MiniAppClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove one app's releases (or --all), or evict inactive releases down to --quota; frees unreferenced files."
    )

    @Argument(help: "The app to remove; omit with --all or --quota.")
    var appId: String?

    @Flag(help: "Remove every app and interrupted download.")
    var all = false

    @Option(
        help: "Evict releases that are neither active, pending nor the rollback target until the files fit in this many bytes.")
    var quota: Int?

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        let chosen = [appId != nil, all, quota != nil].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("give exactly one of an app id, --all or --quota") }
        if let quota, quota < 0 { throw ValidationError("--quota must not be negative") }
    }

    func run() async throws {
        try await CommandFailure.run {
            let store = try storeOptions.open()
            if let appId {
                let report = try store.clear(appId: appId)
                print("removed \(appId); freed \(report.freedBytes) bytes in \(report.removedBlobs.count) files")
            } else if all {
                try store.clearAll()
                print("removed every mini-app")
            } else if let quota {
                let evicted = try store.enforceQuota(maximumBytes: quota)
                let collected = try store.collectGarbage()
                print(
                    "evicted \(evicted.count) release(s); \(try store.usage().totalBytes) bytes stored; \(collected.removedBlobs.count) more files freed"
                )
            }
        }
    }
}
