// Bridge round trips in the real WebKitGTK host, against the floor of a bare echo handler
// in the same host and the same run. Build and run (release, under Xvfb when there is no display):
//
//   swift build -c release --traits WebKitGTK --product HostBenchmark
//   xvfb-run -a .build/release/HostBenchmark [sequential-count]
//
// Sequential round trips are timed on the Swift side, between consecutive arrivals of one
// page's messages (each is posted when the previous answer resolved; `performance.now()` is
// clamped to 1 ms in WebKitGTK). Burst throughput is 1,000 calls in flight at once.
#if WebKitGTK
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

        func sequentialRun(_ body: String, world: String?) async -> Stats {
            _ = await host.evaluate(function: wrap(body, 200), world: world)  // warm-up
            host.recordArrivals()
            _ = await host.evaluate(function: wrap(body, sequential), world: world)
            let arrivals = host.takeArrivals()
            var gaps: [Duration] = []
            for index in arrivals.indices.dropFirst() { gaps.append(arrivals[index] - arrivals[index - 1]) }
            return Stats(gaps)
        }
        func burstRun(_ body: String, world: String?) async -> Double {
            _ = await host.evaluate(function: body, world: world)  // warm-up
            var rates: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                _ = await host.evaluate(function: body, world: world)
                let seconds =
                    Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                    + Double((ContinuousClock.now - start).components.seconds)
                rates.append(1000 / seconds)
            }
            return rates.sorted()[rates.count / 2]
        }

        let world = BridgeScripts.worldName
        let floorSequential = await sequentialRun(floorLoop, world: world)
        let fullSequential = await sequentialRun(fullLoop, world: nil)
        let floorRate = await burstRun(floorBurst, world: world)
        let fullRate = await burstRun(fullBurst, world: nil)
        // Last: it replaces the page's `window.pwakit`, which the SDK answers through.
        let rawSequential = await sequentialRun(rawLoop, world: nil)
        func f(_ value: Double) -> String { String(format: "%.0f", value) }
        func r(_ value: Double) -> String { String(format: "%.2f", value) }
        return """
            host bridge benchmark (WebKitGTK, \(sequential) sequential round trips, bursts of 1000)
            floor (bare echo handler, isolated world): p50 \(f(floorSequential.p50)) µs  p99 \(f(floorSequential.p99)) µs  burst \(f(floorRate)) calls/s
            full  (SDK → relay → dispatcher → module): p50 \(f(fullSequential.p50)) µs  p99 \(f(fullSequential.p99)) µs  burst \(f(fullRate)) calls/s
            raw   (seed protocol, no SDK: shim → relay → dispatcher): p50 \(f(rawSequential.p50)) µs  p99 \(f(rawSequential.p99)) µs
            ratio full/floor: p50 \(r(fullSequential.p50 / floorSequential.p50))  p99 \(r(fullSequential.p99 / floorSequential.p99))  burst \(r(fullRate / floorRate)) (of the floor's calls/s)
            """
    }

    let sequential = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
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
