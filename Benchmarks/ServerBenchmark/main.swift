import BenchmarkArguments
import Foundation
import PWAKitServer

// `ServerBenchmark run [--duration S] [--connections N]` measures; `serve` is the server process it starts;
// `hostile` measures the real `pwakit server` under a registration flood and idle connections.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: ServerBenchmark run [--duration SECONDS] [--connections N] [--users N] [--runs N] [--blobs-only]
           ServerBenchmark hostile [--pwakit PATH] [--seconds N] [--flooders N] [--idle-connections N]
    """
if arguments.first == "serve" {
    // NB: the server process the run starts, with its own positional arguments.
    ServerThreads.runConcurrencyOnEventLoops()
    do {
        try await BenchmarkServe.main(Array(arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("ServerBenchmark serve: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
enum Command {
    case run(BenchmarkRun.Options)
    case hostile(HostileRun.Options)
}
let command = BenchmarkArguments.parse(name: "ServerBenchmark", usage: usage) { arguments -> Command in
    if arguments.subcommand("run") {
        var options = BenchmarkRun.Options()
        options.duration = try arguments.integer("--duration", default: options.duration)
        options.connections = try arguments.integer("--connections", default: options.connections)
        options.users = try arguments.integer("--users", default: options.users)
        options.runs = try arguments.integer("--runs", default: options.runs)
        options.blobsOnly = try arguments.flag("--blobs-only")
        return .run(options)
    }
    if arguments.subcommand("hostile") {
        var options = HostileRun.Options()
        options.pwakit = try arguments.string("--pwakit") ?? options.pwakit
        options.seconds = try arguments.integer("--seconds", default: options.seconds)
        options.flooders = try arguments.integer("--flooders", default: options.flooders)
        options.idleConnections = try arguments.integer("--idle-connections", default: options.idleConnections)
        return .hostile(options)
    }
    throw BenchmarkArguments.Failure(CommandLine.arguments.dropFirst().first ?? "(no command)", "is not run or hostile")
}
do {
    switch command {
    case .run(let options): try await BenchmarkRun.main(options)
    case .hostile(let options): try await HostileRun.main(options)
    }
} catch {
    FileHandle.standardError.write(Data("ServerBenchmark: \(error)\n".utf8))
    exit(1)
}
