import ArgumentParser
import PWAKitCore

/// The `pwakit` command line tool.
struct PWAKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwakit",
        abstract: "Tools for PWAKit apps.",
        version: PWAKit.version,
        subcommands: [ValidateCommand.self, InitCommand.self, ModulesCommand.self])
}

PWAKitCommand.main()
