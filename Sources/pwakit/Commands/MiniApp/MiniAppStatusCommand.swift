import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps

/// `pwakit miniapp status`: what the store holds per app, its sizes, and (with `--verify`)
/// whether it is consistent; exit 1 when it is not.
struct MiniAppStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the installed mini-apps, their active, pending and bad releases and sizes; --verify checks every file."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Re-hash every stored file and check every pointer; exit 1 on any problem.")
    var verify = false

    @Flag(help: "Print JSON.")
    var json = false

    struct AppStatus: Encodable {
        var appId: String
        var active: String?
        var activeVersion: String?
        var pending: String?
        var previous: String?
        var onProbation: Bool
        var bad: [String]
        var installed: [String]
        var bytes: Int
    }

    struct Status: Encodable {
        var apps: [AppStatus]
        var totalBytes: Int
        var partialBytes: Int
        var problems: [String]?
    }

    func run() async throws {
        try await CommandFailure.run {
            let store = try storeOptions.open()
            let usage = try store.usage()
            var apps: [AppStatus] = []
            for appId in try store.appIds() {
                let app = try store.app(appId)
                let releases = try store.installedReleases(appId: appId)
                apps.append(
                    AppStatus(
                        appId: appId, active: app.active,
                        activeVersion: releases.first(where: { $0.bundleHash == app.active })?.version, pending: app.pending,
                        previous: app.previous, onProbation: app.probation != nil, bad: app.bad,
                        installed: releases.map(\.version), bytes: usage.bytesByApp[appId] ?? 0))
            }
            let problems = verify ? try store.integrityProblems(verifyContents: true) : nil
            let status = Status(apps: apps, totalBytes: usage.totalBytes, partialBytes: usage.partialBytes, problems: problems)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(status), as: UTF8.self))
            } else {
                for app in apps {
                    let probation = app.onProbation ? " (not yet ready)" : ""
                    print(
                        "\(app.appId): \(app.activeVersion ?? "none active")\(probation); installed \(app.installed.joined(separator: ", ")); \(app.bytes) bytes"
                            + (app.pending.map { "; pending \($0.prefix(12))" } ?? "")
                            + (app.bad.isEmpty ? "" : "; \(app.bad.count) bad"))
                }
                print("store: \(usage.totalBytes) bytes in files, \(usage.partialBytes) bytes of interrupted downloads")
                for problem in problems ?? [] { Console.writeError("problem: \(problem)") }
            }
            if let problems, !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
