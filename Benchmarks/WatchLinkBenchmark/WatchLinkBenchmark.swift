import BenchmarkArguments
import Foundation
import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// `watchlink-benchmark [--dir DIR] [--count N] [--concurrency N] [--cores free|split|one] [--sync-latency µS] [--round-trip-only | --throughput-only | --durable-only | --engine-only | --store-only]` (`--help` says what each does): the floors and WatchLink, measured in one run.
///
/// The process acts as the phone and spawns a copy of itself (`serve`) as the watch; both the
/// echo floor and WatchLink run between those same two processes.
@main
struct WatchLinkBenchmark {
    static let usage = """
        usage: watchlink-benchmark [--dir DIR] [--count N] [--concurrency N] [--cores free|split|one]
                                   [--sync-latency µS]
                                   [--round-trip-only | --throughput-only | --durable-only | --engine-only | --store-only]
          --dir DIR          where the logs and sockets go (default .build/watchlink-bench; use a real disk)
          --count N          round trips or sends of each kind (default 5000)
          --concurrency N    concurrent tasks, and durable senders (default 32)
          --cores PLACE      free: the scheduler places both processes; split: phone on CPU 0, watch on 1;
                             one: both on CPU 0 (default free)
          --sync-latency µS  a slower disk: every sync that writes, in the floors and in WatchLink's logs,
                             then sleeps this many microseconds more (default 0)
          --round-trip-only  the round trip and the non-durable throughput only
          --throughput-only  the non-durable throughput only
          --durable-only     the durable sends only
          --engine-only      the two engines alone, no I/O
          --store-only       the log's appends alone (no sync timed), against appending the same bytes
        """

    /// The command line: the phone's run, or the watch's (`serve`, started by the phone).
    struct Options {
        var serve = false
        var directory = FileManager.default.currentDirectoryPath + "/.build/watchlink-bench"
        var cores = CorePlacement.free
        var count = 5000
        var concurrency = 32
        var syncLatency = SyncLatency.none
        var only: String?
    }

    static func main() async throws {
        let options = BenchmarkArguments.parse(name: "watchlink-benchmark", usage: usage) {
            (arguments: inout BenchmarkArguments) throws -> Options in
            var options = Options()
            options.serve = arguments.subcommand("serve")
            options.directory = try arguments.string("--dir") ?? options.directory
            options.cores = CorePlacement(
                rawValue: try arguments.choice("--cores", default: "free", of: CorePlacement.allCases.map(\.rawValue)))!
            options.count = try arguments.integer("--count", default: 5000, in: 10...100_000_000)
            options.concurrency = try arguments.integer("--concurrency", default: 32, in: 1...10_000)
            options.syncLatency = SyncLatency(
                latency: .microseconds(try arguments.integer("--sync-latency", default: 0, in: 0...1_000_000)))
            options.only = try arguments.oneOf([
                "--round-trip-only", "--throughput-only", "--durable-only", "--engine-only", "--store-only",
            ])
            return options
        }
        let directory = options.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cores = options.cores
        if let cpu = cores.cpu(forWatch: options.serve), !CorePlacement.pinProcess(to: cpu) {
            print("watchlink-benchmark: cannot pin the \(options.serve ? "watch" : "phone") to CPU \(cpu)")
            exit(1)
        }
        let latency = options.syncLatency
        if options.serve {
            try await serve(directory, latency: latency)
            return
        }
        let count = options.count
        let concurrency = options.concurrency
        if options.only == "--engine-only" {
            let payload = try WatchPayload.encode(Echo(text: String(repeating: "x", count: 64)))
            for inFlight in [1, concurrency] {
                guard let cpu = EngineRoundTrips.measure(count: count, inFlight: inFlight, payload: payload) else {
                    print("watchlink-benchmark: the engines stopped short of \(count) round trips")
                    return
                }
                print(
                    "engine the two engines alone (no I/O, no payload coding, one thread), \(inFlight) in flight: \(format(cpu)) µs CPU per round trip"
                )
            }
            return
        }
        if options.only == "--store-only" {
            let payload = try WatchPayload.encode(Record(text: String(repeating: "x", count: 64)))
            for measured in StoreAppends.cases(payload: payload) {
                let (floor, ours, bytes) = try StoreAppends.measure(
                    measured, directory: directory, perRound: max(count / 10, 1), rounds: 11)
                print(
                    "store  append of \(measured.name), \(bytes) B framed: floor (as many bytes, built beforehand) \(format(floor * 1000)) ns, ours \(format(ours * 1000)) ns CPU per record (medians of 11 rounds); ratio ours/floor \(String(format: "%.2f", ours / floor))x"
                )
            }
            return
        }
        for name in ["phone", "watch"] { try? FileManager.default.removeItem(atPath: directory + "/" + name) }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [
            "serve", "--dir", directory, "--cores", cores.rawValue, "--sync-latency",
            String(Int(micros(latency.latency))),
        ]
        try child.run()
        defer { child.terminate() }

        print(
            "watchlink-benchmark: data directory \(directory) on \(filesystemType(of: directory)); cores: \(cores.rawValue); sync latency added: \(Int(micros(latency.latency))) µs"
        )
        let payload = Echo(text: String(repeating: "x", count: 64))
        let frame = [UInt8](
            WireCodec.encode(
                .request(
                    WireRequest(
                        typeKey: Echo.typeKey, payload: try WatchPayload.encode(payload), requestID: UUID(),
                        createdAt: WatchTimestamp(milliseconds: 0), deadline: WatchTimestamp(milliseconds: 1)))))

        let unbatched = Floors.appendSync(
            directory: directory, size: 256, count: latency.latency > .zero ? 50 : 500, batch: 1, latency: latency)
        print("disk   append+fdatasync 256 B, one record per sync: \(format(unbatched)) records/s")

        let (connection, _, store) = try makeConnection(.phone, directory, latency: latency)
        try await connection.start()
        for _ in 0..<200 where !connection.status.isReachable { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        // NB: the echo and WatchLink alternate in blocks, so both see the same machine: on a VM the
        // cost of waking a thread changes several-fold from one second to the next.
        guard let echoClient = Floors.EchoClient(path: directory + "/echo.sock", frame: frame) else {
            print("watchlink-benchmark: the echo server did not start")
            return
        }
        let watch = child.processIdentifier
        let blocks = 10
        if options.only == "--durable-only" {
            try await durableSends(
                connection, store: store, directory: directory, count: count, senders: concurrency, blocks: blocks, watch: watch,
                latency: latency)
            return
        }
        // NB: ours twice: from tasks on the global executor, and from tasks that prefer the
        // connection's executor (resumed on the thread that read the response).
        let pinned = connection.taskExecutor
        if options.only != "--throughput-only" {
            var echo = Samples()
            var global = Samples()
            var onConnection = Samples()
            let (echoRun, oursRuns, _) = try await alternating(count: count, blocks: blocks, watch: watch) { size in
                echoClient.run(size, into: &echo)
            } ours: { size in
                try await Self.roundTrips(connection, payload, count: size, into: &global)
            } pinned: { size in
                var samples = Samples()
                let elapsed = try await withTaskExecutorPreference(pinned) {
                    try await Self.roundTrips(connection, payload, count: size, into: &samples)
                }
                onConnection.add(contentsOf: samples)
                return elapsed
            }
            print(
                "floor  socket echo (\(frame.count) B frame): p50 \(format(echo.p50)) µs  p99 \(format(echo.p99)) µs  \(format(rate(count, echoRun.elapsed))) round trips/s  CPU \(format(micros(echoRun.cpu) / Double(count))) µs/round trip"
            )
            for (name, samples, run) in [
                ("global executor", global, oursRuns.ours), ("connection's executor", onConnection, oursRuns.pinned),
            ] {
                print(
                    "ours   non-durable round trip, task on the \(name): p50 \(format(samples.p50)) µs  p99 \(format(samples.p99)) µs  \(format(rate(count, run.elapsed))) round trips/s  CPU \(format(micros(run.cpu) / Double(count))) µs/round trip"
                )
            }
            print("blocks \(blocks) alternating blocks of each, \(count) round trips in all; CPU is both processes'")
            print(
                "ratio  round-trip p50 ours/echo = \(format(global.p50 / max(echo.p50, 0.001)))x on the global executor, \(format(onConnection.p50 / max(echo.p50, 0.001)))x on the connection's (target ≤ 3x)"
            )
        }

        let (pipelined, concurrentRuns, _) = try await alternating(count: count, blocks: blocks, watch: watch) { size in
            echoClient.runPipelined(size)
        } ours: { size in
            try await concurrentRoundTrips(connection, payload, count: size, concurrency: concurrency, executor: nil)
        } pinned: { size in
            try await concurrentRoundTrips(connection, payload, count: size, concurrency: concurrency, executor: pinned)
        }
        let pipelinedRate = rate(count, pipelined.elapsed)
        print(
            "floor  pipelined echo (one writer, one reader): \(format(pipelinedRate)) frames/s  CPU \(format(micros(pipelined.cpu) / Double(count))) µs/frame"
        )
        var ratios: [String] = []
        for (name, run) in [("global executor", concurrentRuns.ours), ("connection's executor", concurrentRuns.pinned)] {
            let ours = rate(count, run.elapsed)
            print(
                "ours   non-durable throughput, \(concurrency) concurrent tasks on the \(name): \(format(ours)) round trips/s  CPU \(format(micros(run.cpu) / Double(count))) µs/round trip (the watch \(format(micros(run.watchCPU) / Double(count))))"
            )
            ratios.append("\(String(format: "%.3f", ours / max(pipelinedRate, 0.001)))x on the \(name)")
        }
        print("ratio  non-durable throughput ours/pipelined echo = \(ratios.joined(separator: ", ")) (target ≥ 0.5x)")
        if let engines = EngineRoundTrips.measure(
            count: count, inFlight: concurrency, payload: try WatchPayload.encode(payload))
        {
            print(
                "engine the two engines alone (no I/O, no payload coding, one thread): \(format(engines)) µs CPU per round trip")
        } else {
            print("watchlink-benchmark: the engines stopped short of \(count) round trips")
        }
        if options.only == "--round-trip-only" || options.only == "--throughput-only" { return }

        try await durableSends(
            connection, store: store, directory: directory, count: count, senders: concurrency, blocks: blocks, watch: watch,
            latency: latency)

        let roundStart = clock.now
        let roundTrips = count / 4
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    for _ in stride(from: worker, to: roundTrips, by: concurrency) {
                        _ = try await connection.send(payload, strategy: .messageWithUserInfoFallback)
                    }
                }
            }
            try await group.waitForAll()
        }
        print(
            "ours   durable request/response (both sides fsync), \(concurrency) concurrent: \(format(rate(roundTrips, roundStart.duration(to: clock.now)))) round trips/s"
        )
    }

    /// What a part of a run took: time, and CPU of both processes (and of the watch's alone).
    struct Run {
        var elapsed = Duration.zero
        var cpu = Duration.zero
        var watchCPU = Duration.zero

        /// Adds a block that took `elapsed`, from CPU readings `before` and `after`.
        mutating func add(_ elapsed: Duration, from before: (Duration, Duration), to after: (Duration, Duration)) {
            self.elapsed += elapsed
            cpu += (after.0 + after.1) - (before.0 + before.1)
            watchCPU += after.1 - before.1
        }
    }

    /// Runs `floor`, `ours` and `pinned` (when given) in `blocks` alternating blocks that add up to
    /// `count` each; returns each one's time and CPU (of both processes).
    ///
    /// NB: alternating, so all see the same machine: on a VM the cost of waking a thread changes
    /// several-fold from one second to the next. Each block starts after a pause of 50 ms.
    nonisolated(nonsending) static func alternating(
        count: Int, blocks: Int, watch: Int32, floor: (Int) throws -> Duration, ours: (Int) async throws -> Duration,
        pinned: ((Int) async throws -> Duration)? = nil, secondFloor: ((Int) throws -> Duration)? = nil
    ) async throws -> (floor: Run, ours: (ours: Run, pinned: Run), secondFloor: Run) {
        var floorRun = Run()
        var oursRun = Run()
        var pinnedRun = Run()
        var secondFloorRun = Run()
        func cpu() -> (Duration, Duration) { (CPUTime.ofSelf(), CPUTime.of(watch)) }
        // NB: each block starts on a quiet machine: without a pause, a block inherits the threads
        // of the one before it still winding down (the pool's, a connection's), which then compete
        // with it for the two cores; whichever part ran second paid for the first.
        func settle() { usleep(50_000) }
        for block in 0..<blocks {
            let size = count / blocks + (block < count % blocks ? 1 : 0)
            settle()
            var before = cpu()
            floorRun.add(try floor(size), from: before, to: cpu())
            settle()
            before = cpu()
            oursRun.add(try await ours(size), from: before, to: cpu())
            if let pinned {
                settle()
                before = cpu()
                pinnedRun.add(try await pinned(size), from: before, to: cpu())
            }
            if let secondFloor {
                settle()
                before = cpu()
                secondFloorRun.add(try secondFloor(size), from: before, to: cpu())
            }
        }
        return (floorRun, (oursRun, pinnedRun), secondFloorRun)
    }

    /// Sequential round trips, from the global executor as a caller in a task would make them (the
    /// main actor would add a hop to the main thread after every answer).
    nonisolated static func roundTrips(
        _ connection: WatchConnection, _ payload: Echo, count: Int, into samples: inout Samples
    ) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count {
            let t = clock.now
            _ = try await connection.send(payload, strategy: .messageOnly, durable: false)
            samples.add(t.duration(to: clock.now))
        }
        return start.duration(to: clock.now)
    }

    /// Non-durable round trips from `concurrency` tasks at once, preferring `executor` when given;
    /// returns the time taken.
    nonisolated static func concurrentRoundTrips(
        _ connection: WatchConnection, _ payload: Echo, count: Int, concurrency: Int, executor: (any TaskExecutor)?
    ) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask(executorPreference: executor) {
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        _ = try await connection.send(payload, strategy: .messageOnly, durable: false)
                    }
                }
            }
            try await group.waitForAll()
        }
        return start.duration(to: clock.now)
    }

    /// A connection of `origin` with its log in `directory`, on a disk as slow as `latency` says.
    static func makeConnection(_ origin: DeviceOrigin, _ directory: String, latency: SyncLatency) throws -> (
        WatchConnection, SocketSession, FileStore
    ) {
        let dir = directory + "/" + (origin == .phone ? "phone" : "watch")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let session = try SocketSession(
            socketPath: directory + "/link.sock", role: origin == .watch ? .listen : .connect, directory: dir)
        var configuration = LinkEngine.Configuration()
        configuration.outboxLimit = 1_000_000
        let store = try FileStore(path: dir + "/watchlink.log")
        let connection =
            latency.latency > .zero
            ? WatchConnection(
                origin: origin, session: session, durableStore: SlowFileStore(store, latency: latency), clock: ContinuousClock(),
                configuration: configuration)
            : WatchConnection(
                origin: origin, session: session, store: store, clock: ContinuousClock(), configuration: configuration)
        return (connection, session, store)
    }

    static func serve(_ directory: String, latency: SyncLatency) async throws {
        Floors.serveEcho(path: directory + "/echo.sock")
        let (connection, _, store) = try makeConnection(.watch, directory, latency: latency)
        try connection.register(Echo.self) { $0 }
        try connection.register(WatchLogStatistics.self) { _ in LogStatistics(store.statistics) }
        try connection.register(Record.self) { _ in WatchAck() }
        try await connection.start()
        while getppid() != 1 { try await Task.sleep(for: .milliseconds(200)) }
    }
}
