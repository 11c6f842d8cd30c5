import Foundation
import PWAKitServer

// `ServerBenchmark run [--duration S] [--connections N]` measures; `serve` is the server process it starts;
// `hostile` measures the real `pwakit server` under a registration flood and idle connections.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage =
    "usage: ServerBenchmark run [--duration SECONDS] [--connections N] [--users N] [--runs N] [--blobs-only]\n"
    + "       ServerBenchmark hostile [--pwakit PATH] [--seconds N] [--flooders N] [--idle-connections N]\n"
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage, terminator: "")
    exit(0)
}
if arguments.first == "serve" { ServerThreads.runConcurrencyOnEventLoops() }
do {
    switch arguments.first {
    case "serve": try await BenchmarkServe.main(Array(arguments.dropFirst()))
    case "run": try await BenchmarkRun.main(Array(arguments.dropFirst()))
    case "hostile": try await HostileRun.main(Array(arguments.dropFirst()))
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("ServerBenchmark: \(error)\n".utf8))
    exit(1)
}
