import Foundation
import WatchLink
import WatchLinkSimulation

/// `watchlink-demo`: a phone and a watch as two processes over a Unix socket, or a chaos replay.
@main
struct WatchLinkDemo {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if DemoOptions.wantsHelp(arguments) {
            print(DemoOptions.usage)
            exit(0)
        }
        do {
            let options = try DemoOptions(arguments)
            switch options.command {
            case "watch": try await DemoDevices.watch(options)
            case "phone": try await DemoDevices.phone(options)
            default:
                let seed = UInt64(try options.int("seed", default: 1))
                let report = ChaosRun.run(seed: seed, requests: try options.int("requests", default: 5000))
                print("chaos seed=\(seed) digest=\(String(report.traceDigest, radix: 16)) \(report)")
                for violation in report.violations { print("violation: \(violation)") }
                exit(report.passed ? 0 : 1)
            }
        } catch {
            FileHandle.standardError.write(Data("watchlink-demo: \(error)\n\(DemoOptions.usage)\n".utf8))
            exit(2)
        }
    }
}
