import ArgumentParser
import Foundation
import PWAKitAppleFiles
import PWAKitCore

/// `pwakit sync [path] [--output dir] [--check]`: renders the Apple files from `pwa-config.json`.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract:
            "Render Info.plist keys, entitlements, PrivacyInfo.xcprivacy and apple-app-site-association from pwa-config.json.",
        discussion: """
            The configuration's `identifiers`, `features`, `origins` and `payments` are the one \
            source: the files are written to --output (default: apple/ beside the configuration) \
            as Info.plist, App.entitlements, PrivacyInfo.xcprivacy, Extensions/<name>.entitlements \
            per extension and apple-app-site-association (with a team id). Property lists are \
            merged: the keys the configuration owns are set or removed, every other key is kept. \
            Each changed file is shown as a unified diff; a second run changes nothing.

            Exit status: 0 written or already up to date; 1 the configuration is invalid or \
            cannot be rendered (a missing usage description, too many app-bound domains, an \
            existing file that is not a property list); 2 unreadable; 4 a file cannot be written; \
            5 with --check, a file is stale (nothing is written).
            """)

    @Argument(help: "A pwa-config.json file, or a directory that holds one.")
    var path: String = "."

    @Option(name: .shortAndLong, help: "Where the files go (default: apple/ beside the configuration).")
    var output: String?

    @Flag(help: "Write nothing; exit 5 when a file differs from what the configuration makes.")
    var check = false

    @Flag(help: "Print only the summary lines, not the diffs.")
    var quiet = false

    func run() throws {
        try CommandFailure.run(json: false) {
            let file = try ConfigurationLoader.locate(URL(fileURLWithPath: path))
            let configuration = try ConfigurationLoader.load(from: file)
            let directory = output ?? file.deletingLastPathComponent().appendingPathComponent("apple").path
            let plan = try AppleFilesSync.plan(AppleFiles(configuration: configuration), directory: directory)
            for file in plan where file.status != .unchanged && !quiet { Console.write(file.diff, terminator: "") }
            let stale = plan.filter { $0.status != .unchanged }
            for file in plan {
                let state: String =
                    switch file.status {
                    case .unchanged: "up to date"
                    case .created: check ? "missing" : "created"
                    case .updated: check ? "stale" : "updated"
                    }
                Console.write("\(directory)/\(file.path): \(state)")
            }
            if AppleFiles(configuration: configuration).identifiers.applicationIdentifier == nil {
                Console.write("apple-app-site-association: not written (identifiers.teamId is not set)")
            }
            if check {
                if !stale.isEmpty {
                    throw CommandFailure(
                        status: .stale, code: "sync.stale",
                        message: "\(stale.count) file(s) differ from pwa-config.json: run `pwakit sync` and commit the result")
                }
                return
            }
            try AppleFilesSync.write(plan, directory: directory)
        }
    }
}
