import ArgumentParser
import PWAKitCore

/// The `pwakit` command line tool.
struct PWAKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwakit",
        abstract: "Build, sign, publish and serve PWAKit mini-apps.",
        version: PWAKit.version,
        subcommands: [ServerCommand.self, BundleCommand.self, KeysCommand.self, PublishCommand.self]
    )
}

/// Runs an async command's `async` `run()` (top-level code would otherwise pick the synchronous one).
func runAsync(_ command: inout some AsyncParsableCommand) async throws {
    try await command.run()
}

do {
    var command = try PWAKitCommand.parseAsRoot()
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
} catch {
    PWAKitCommand.exit(withError: error)
}
