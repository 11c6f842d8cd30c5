import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitHost
import PWAKitModules
import Synchronization

/// `pwakit bridge [path] [--origin URL]`: the native side of the bridge over standard I/O.
///
/// Each line on standard input is one message as a page posts it; each line on standard
/// output is one thing the host would deliver to the page: a response
/// (`{"id":…,"success":…}`) for `window.pwakit._handleResponse` or an event
/// (`{"type":…}`) for `window.pwakit._handleEvent`. The first line is the event
/// `{"type":"protocol","data":<handshake>}`. Web teams use it to test pages and the SDK
/// against the real dispatcher without a browser; the host uses the same dispatcher.
struct BridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Run the bridge dispatcher over standard input and output, one JSON message per line.",
        discussion: """
            The page's origin is the configuration's start URL unless --origin names another; \
            the configuration's origin policy decides what it may call. When standard input \
            ends, calls still in flight finish before the command exits. Exit status: 0 done; \
            1 invalid configuration; 2 unreadable.
            """)

    @Argument(help: "A pwa-config.json file, or a directory that holds one.")
    var path: String = "."

    @Option(name: .long, help: "The URL of the page the messages come from.")
    var origin: String?

    @Option(name: .long, help: "The default call timeout in milliseconds.")
    var timeoutMs: Int = 30_000

    func run() async throws {
        var loaded: PWAConfiguration?
        try CommandFailure.run(json: false) {
            loaded = try ConfigurationLoader.load(from: try ConfigurationLoader.locate(URL(fileURLWithPath: path)))
        }
        guard let configuration = loaded else { return }
        guard timeoutMs > 0 else {
            throw ValidationError("--timeout-ms must be positive")
        }
        let registry: ModuleRegistry
        do throws(RegistryError) {
            registry = try HostModules.registry(
                BuiltInModules.simulated() + AppFlags.modules(for: configuration), features: configuration.features)
        } catch {
            Console.writeError("error: \(error.description)")
            throw ExitCode(1)
        }
        let dispatcher = BridgeDispatcher(
            registry: registry, configuration: configuration, version: HostModules.defaultVersion,
            build: HostModules.defaultBuild, limits: BridgeLimits(defaultTimeout: .milliseconds(timeoutMs)))
        let output = LineWriter()
        output.write(BridgeEvent(type: "protocol", data: BridgeHandshake(registry: registry).json).json)
        let page = await dispatcher.openPage(url: origin ?? configuration.app.startUrl) { delivered in
            output.write(delivered.json)
        }
        await withTaskGroup(of: Void.self) { group in
            for await line in StandardInputLines() where !line.isEmpty {
                group.addTask {
                    if let answer = await dispatcher.handle(line, from: page) {
                        output.write(answer.json)
                    }
                }
            }
        }
    }
}

/// Writes whole lines to standard output, one writer at a time.
final class LineWriter: Sendable {
    private let lock = Mutex(())

    func write(_ line: String) {
        lock.withLock { _ in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}

/// Standard input's lines, read on a thread of their own so no task blocks on I/O.
struct StandardInputLines: AsyncSequence {
    typealias Element = String

    func makeAsyncIterator() -> AsyncStream<String>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.start()
        return stream.makeAsyncIterator()
    }
}
