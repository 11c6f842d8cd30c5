import ArgumentParser
import PWAKitCore

/// The `pwakit` command line tool.
struct PWAKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwakit",
        abstract: "Tools for PWAKit apps.",
        version: PWAKit.version,
        subcommands: [
            ValidateCommand.self, InitCommand.self, ModulesCommand.self, BridgeCommand.self, ServerCommand.self,
            BundleCommand.self, KeysCommand.self, PublishCommand.self, MiniAppCommand.self, RunCommand.self,
        ])
}
