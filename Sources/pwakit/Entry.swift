import ArgumentParser
import Dispatch
import Foundation
import PWAKitCore
import PWAKitServer

/// The process entry point.
///
/// `pwakit run` must keep the main thread for GTK's main loop, so it runs synchronously and
/// never enters `dispatchMain()`; every other command runs in the async command tree.
@main
enum Entry {
    static func main() {
        ParentWatch.startIfAsked()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(PWAKit.version)
            exit(0)
        }
        if arguments.first == RunCommand.configuration.commandName {
            runAsRoot(RunCommand.self, Array(arguments.dropFirst()), name: "pwakit run")
        }
        // NB: `miniapp open` and `identity showcase` keep the main thread for GTK too.
        if arguments.first == MiniAppCommand.configuration.commandName,
            arguments.dropFirst().first == MiniAppOpenCommand.configuration.commandName
        {
            runAsRoot(MiniAppOpenCommand.self, Array(arguments.dropFirst(2)), name: "pwakit miniapp open")
        }
        if arguments.first == IdentityCommand.configuration.commandName,
            arguments.dropFirst().first == IdentityShowcaseCommand.configuration.commandName
        {
            runAsRoot(IdentityShowcaseCommand.self, Array(arguments.dropFirst(2)), name: "pwakit identity showcase")
        }
        if arguments.first == LauncherCommand.configuration.commandName {
            runAsRoot(LauncherCommand.self, Array(arguments.dropFirst()), name: "pwakit launcher")
        }
        // NB: not with an OTLP exporter: swift-otel's HTTP client shuts down synchronously, which NIO
        // forbids on an event loop, and tasks would run on one.
        if arguments.first == ServerCommand.configuration.commandName,
            !arguments.contains(where: { $0 == "--otlp-endpoint" || $0.hasPrefix("--otlp-endpoint=") })
        {
            ServerThreads.runConcurrencyOnEventLoops()
        }
        Task {
            await PWAKitCommand.main()
            exit(0)
        }
        dispatchMain()
    }

    /// Runs a command that keeps the main thread as the root command; its messages name it in full
    /// (`See 'pwakit run --help'`, not `See 'run --help'`).
    private static func runAsRoot<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String], name: String) -> Never {
        do {
            var command = try type.parseAsRoot(arguments)
            try command.run()
            exit(0)
        } catch {
            let code = type.exitCode(for: error)
            let short = type.configuration.commandName ?? name
            let message = type.fullMessage(for: error).replacingOccurrences(of: "'\(short) --help'", with: "'\(name) --help'")
            if !message.isEmpty {
                // NB: as ArgumentParser does: help (a success) on standard output, errors on standard error.
                (code == .success ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
            }
            exit(code.rawValue)
        }
    }
}
