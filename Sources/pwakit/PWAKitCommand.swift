import ArgumentParser
import PWAKitCore

/// The `pwakit` command line tool.
struct PWAKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwakit",
        abstract: "Tools for PWAKit apps.",
        // NB: no `version:` here. ArgumentParser would then add a `--version` flag to every
        // subcommand's help, beside `bundle --version`; Entry answers `pwakit --version` itself.
        discussion: "pwakit --version prints the version.",
        subcommands: [
            ValidateCommand.self, InitCommand.self, SchemaCommand.self, ModulesCommand.self, BridgeCommand.self,
            ServerCommand.self, WorkerCommand.self,
            BundleCommand.self, KeysCommand.self, PublishCommand.self, AdminCommand.self, MiniAppCommand.self,
            LauncherCommand.self, RunCommand.self, EventsCommand.self, InstallDesktopCommand.self,
            SyncCommand.self, ShareCommand.self, IdentityCommand.self,
        ])

    /// Without a subcommand there is nothing to do: a usage error (exit 64) naming the commands, not success.
    func run() async throws {
        throw ValidationError(
            "choose a command: \(Self.configuration.subcommands.map { $0.configuration.commandName ?? "" }.joined(separator: ", "))"
        )
    }
}
