// Bridge round trips in the real WebKitGTK host, against the floor of a bare echo handler
// in the same host and the same run. Build and run (release, under Xvfb when there is no display):
//
//   swift build -c release --traits WebKitGTK --product HostBenchmark
//   xvfb-run -a .build/release/HostBenchmark [sequential-count]
//
// Sequential round trips are timed on the Swift side, between consecutive arrivals of one
// page's messages (each is posted when the previous answer resolved; `performance.now()` is
// clamped to 1 ms in WebKitGTK). Burst throughput is 1,000 calls in flight at once (the median
// of seven bursts). The floor and the full stack alternate in blocks within the run.
#if WebKitGTK
    import BenchmarkArguments
    import Foundation
    import PWAKitCore
    import PWAKitHost
    import PWAKitLinuxHost

    /// The trivial module the full stack calls: `bench.echo` answers its payload.
    struct BenchModule: ActionModule {
        static let moduleName = "bench"
        static let actions = ModuleActions<BenchModule>()
            .action("echo", payload: JSONValue.self, result: JSONValue.self) { _, payload, _ in payload }
    }

    struct Stats {
        var p50: Double
        var p99: Double

        init(_ samples: [Duration]) {
            let micros = samples.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }
                .sorted()
            p50 = micros.isEmpty ? .nan : micros[micros.count / 2]
            p99 = micros.isEmpty ? .nan : micros[min(micros.count - 1, micros.count * 99 / 100)]
        }
    }

    /// How many alternating blocks the sequential calls are split into, and how many bursts each side runs.
    let blocks = 10
    let bursts = 7

    @MainActor
    func measure(_ host: LinuxHost, sequential: Int) async -> String {
        let floorRequest = #"{"id":"1","module":"bench","action":"echo","payload":{"n":1}}"#
        let floorLoop = """
            const h = window.webkit.messageHandlers.echo; const m = \(JSONSerializer.serialize(.string(floorRequest)));
            for (let i = 0; i < count; i++) await h.postMessage(m);
            return true;
            """
        let floorBurst = """
            const h = window.webkit.messageHandlers.echo; const m = \(JSONSerializer.serialize(.string(floorRequest)));
            await Promise.all(Array.from({ length: 1000 }, () => h.postMessage(m)));
            return true;
            """
        // The same path without the SDK: the seed's raw protocol through the page-world shim.
        let rawLoop = """
            let next; window.pwakit = { _handleResponse: (r) => next(r), _handleEvent: () => {} };
            const h = window.webkit.messageHandlers.pwakit;
            for (let i = 0; i < count; i++) {
              await new Promise((resolve) => { next = resolve; h.postMessage('{"id":"r' + i + '","module":"bench","action":"echo","payload":{"n":1}}'); });
            }
            return true;
            """
        let fullLoop = "for (let i = 0; i < count; i++) await PWAKit.call('bench', 'echo', { n: 1 }); return true;"
        let fullBurst =
            "await Promise.all(Array.from({ length: 1000 }, () => PWAKit.call('bench', 'echo', { n: 1 }))); return true;"
        func wrap(_ body: String, _ count: Int) -> String { "const count = \(count);\n" + body }

        /// Runs `count` sequential calls and appends the gaps between consecutive arrivals to `gaps`.
        func sequentialRun(_ body: String, world: String?, count: Int, into gaps: inout [Duration]) async {
            host.recordArrivals()
            _ = await host.evaluate(function: wrap(body, count), world: world)
            let arrivals = host.takeArrivals()
            for index in arrivals.indices.dropFirst() { gaps.append(arrivals[index] - arrivals[index - 1]) }
        }
        /// How many native messages the last burst took.
        var nativeMessages = 0
        /// One burst of 1,000 calls in flight; calls/s.
        func burstRun(_ body: String, world: String?) async -> Double {
            host.recordArrivals()
            let start = ContinuousClock.now
            _ = await host.evaluate(function: body, world: world)
            let elapsed = ContinuousClock.now - start
            nativeMessages = host.takeArrivals().count
            return 1000 / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
        }

        let world = BridgeScripts.worldName
        // Warm-up, then the floor and the full stack alternate in blocks (and bursts), so both see
        // the same machine: on a shared VM the cost of a thread wake-up drifts several-fold within seconds.
        var ignored: [Duration] = []
        await sequentialRun(floorLoop, world: world, count: 200, into: &ignored)
        await sequentialRun(fullLoop, world: nil, count: 200, into: &ignored)
        _ = await burstRun(floorBurst, world: world)
        _ = await burstRun(fullBurst, world: nil)
        var floorGaps: [Duration] = []
        var fullGaps: [Duration] = []
        for block in 0..<blocks {
            let size = sequential / blocks + (block < sequential % blocks ? 1 : 0)
            await sequentialRun(floorLoop, world: world, count: size, into: &floorGaps)
            await sequentialRun(fullLoop, world: nil, count: size, into: &fullGaps)
        }
        var floorRates: [Double] = []
        var fullRates: [Double] = []
        var floorMessages = 0
        var fullMessages = 0
        for _ in 0..<bursts {
            floorRates.append(await burstRun(floorBurst, world: world))
            floorMessages = nativeMessages
            fullRates.append(await burstRun(fullBurst, world: nil))
            fullMessages = nativeMessages
        }
        let floorSequential = Stats(floorGaps)
        let fullSequential = Stats(fullGaps)
        let floorRate = floorRates.sorted()[bursts / 2]
        let fullRate = fullRates.sorted()[bursts / 2]
        // Last: it replaces the page's `window.pwakit`, which the SDK answers through.
        var rawGaps: [Duration] = []
        await sequentialRun(rawLoop, world: nil, count: sequential / blocks, into: &rawGaps)
        let rawSequential = Stats(rawGaps)
        func f(_ value: Double) -> String { String(format: "%.0f", value) }
        func r(_ value: Double) -> String { String(format: "%.2f", value) }
        return """
            host bridge benchmark (WebKitGTK, \(sequential) sequential round trips in \(blocks) alternating blocks, \(bursts) alternating bursts of 1000 each)
            floor (bare echo handler, isolated world): p50 \(f(floorSequential.p50)) µs  p99 \(f(floorSequential.p99)) µs  burst \(f(floorRate)) calls/s
            full  (SDK → relay → dispatcher → module): p50 \(f(fullSequential.p50)) µs  p99 \(f(fullSequential.p99)) µs  burst \(f(fullRate)) calls/s
            raw   (seed protocol, no SDK: shim → relay → dispatcher; one block): p50 \(f(rawSequential.p50)) µs  p99 \(f(rawSequential.p99)) µs
            ratio full/floor: p50 \(r(fullSequential.p50 / floorSequential.p50))  p99 \(r(fullSequential.p99 / floorSequential.p99))  burst \(r(fullRate / floorRate)) (of the floor's calls/s)
            native messages per burst of 1000: floor \(floorMessages), full \(fullMessages) (the relay batches what a page posts in one task)
            """
    }

    let sequential = BenchmarkArguments.parse(
        name: "HostBenchmark", usage: "usage: HostBenchmark [sequential-count]   (2000 if not given)"
    ) { try $0.leadingInteger("sequential-count", default: 2000) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-host-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("<!doctype html><meta charset=utf-8><title>bench</title><p>bench</p>".utf8).write(
        to: directory.appendingPathComponent("index.html"))
    let configuration = PWAConfiguration(
        app: AppSection(name: "Bench", bundleId: "dev.pwakit.bench", startUrl: "app://bench/index.html"),
        origins: OriginsSection(allowed: ["pwakit.dev"]))
    var options = HostOptions()
    options.floorEcho = true
    options.dataDirectory = directory.appendingPathComponent("data")
    options.output = { _ in }
    let status = MainActor.assumeIsolated { () -> Int32 in
        do {
            let host = try LinuxHost(
                launch: AppLaunch(configuration: configuration, bundleRoot: directory, startURL: configuration.app.startUrl),
                options: options, modules: [BenchModule()])
            host.onFirstLoad = { host in
                Task { @MainActor in
                    print(await measure(host, sequential: sequential))
                    host.stop(0)
                }
            }
            return try host.run()
        } catch {
            print("error: \(error)")
            return 1
        }
    }
    try? FileManager.default.removeItem(at: directory)
    exit(status)
#else
    print("HostBenchmark needs the WebKitGTK trait: swift build -c release --traits WebKitGTK --product HostBenchmark")
#endif
