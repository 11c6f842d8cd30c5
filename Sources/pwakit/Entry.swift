import ArgumentParser
import Dispatch
import Foundation
import PWAKitServer

/// The process entry point.
///
/// `pwakit run` must keep the main thread for GTK's main loop, so it runs synchronously and
/// never enters `dispatchMain()`; every other command runs in the async command tree.
@main
enum Entry {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == RunCommand.configuration.commandName {
            RunCommand.main(Array(arguments.dropFirst()))
            exit(0)
        }
        // NB: `miniapp open` keeps the main thread for GTK too.
        if arguments.first == MiniAppCommand.configuration.commandName,
            arguments.dropFirst().first == MiniAppOpenCommand.configuration.commandName
        {
            MiniAppOpenCommand.main(Array(arguments.dropFirst(2)))
            exit(0)
        }
        if arguments.first == LauncherCommand.configuration.commandName {
            LauncherCommand.main(Array(arguments.dropFirst()))
            exit(0)
        }
        if arguments.first == ServerCommand.configuration.commandName {
            ServerThreads.runConcurrencyOnEventLoops()
        }
        Task {
            await PWAKitCommand.main()
            exit(0)
        }
        dispatchMain()
    }
}
