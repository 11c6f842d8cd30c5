import Foundation
import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// `watchlink-benchmark [--dir DIR] [--count N] [--concurrency N] [--round-trip-only]`: the floors and WatchLink, measured in one run.
///
/// The process acts as the phone and spawns a copy of itself (`serve`) as the watch; both the
/// echo floor and WatchLink run between those same two processes.
@main
struct WatchLinkBenchmark {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: "--" + name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let directory = option("dir") ?? FileManager.default.currentDirectoryPath + "/.build/watchlink-bench"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if arguments.first == "serve" {
            try await serve(directory)
            return
        }
        let count = Int(option("count") ?? "") ?? 5000
        let concurrency = Int(option("concurrency") ?? "") ?? 32
        for name in ["phone", "watch"] { try? FileManager.default.removeItem(atPath: directory + "/" + name) }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["serve", "--dir", directory]
        try child.run()
        defer { child.terminate() }

        print("watchlink-benchmark: data directory \(directory) on \(filesystemType(of: directory))")
        let payload = Echo(text: String(repeating: "x", count: 64))
        let frame = [UInt8](
            WireCodec.encode(
                .request(
                    WireRequest(
                        typeKey: Echo.typeKey, payload: try WireCodec.encodeValue(payload), requestID: UUID(),
                        createdAt: WatchTimestamp(milliseconds: 0), deadline: WatchTimestamp(milliseconds: 1)))))

        let unbatched = Floors.appendSync(directory: directory, size: 256, count: 500, batch: 1)
        let batched = Floors.appendSync(directory: directory, size: 256, count: count, batch: concurrency)
        print(
            "floor  append+fdatasync 256 B: unbatched \(format(unbatched)) records/s; batch \(concurrency): \(format(batched)) records/s"
        )

        let (connection, _) = try makeConnection(.phone, directory)
        try await connection.start()
        for _ in 0..<200 where !connection.status.isReachable { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        // NB: the echo and WatchLink alternate in blocks, so both see the same machine: on a VM the
        // cost of waking a thread changes several-fold from one second to the next.
        guard let echoClient = Floors.EchoClient(path: directory + "/echo.sock", frame: frame) else {
            print("watchlink-benchmark: the echo server did not start")
            return
        }
        var echo = Samples()
        var ours = Samples()
        var echoElapsed = Duration.zero
        var oursElapsed = Duration.zero
        let blocks = 10
        for block in 0..<blocks {
            let size = count / blocks + (block < count % blocks ? 1 : 0)
            echoElapsed += echoClient.run(size, into: &echo)
            oursElapsed += try await roundTrips(connection, payload, count: size, into: &ours)
        }
        print(
            "floor  socket echo (\(frame.count) B frame): p50 \(format(echo.p50)) µs  p99 \(format(echo.p99)) µs  \(format(rate(count, echoElapsed))) round trips/s"
        )
        print(
            "ours   non-durable round trip: p50 \(format(ours.p50)) µs  p99 \(format(ours.p99)) µs  \(format(rate(count, oursElapsed))) round trips/s"
        )
        print("blocks \(blocks) alternating blocks of each, \(count) round trips in all")
        print("ratio  round-trip p50 ours/echo = \(format(ours.p50 / max(echo.p50, 0.001)))x (target ≤ 3x)")
        if arguments.contains("--round-trip-only") { return }

        let record = Record(text: String(repeating: "r", count: 128))
        let durableStart = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        try await connection.post(record, strategy: .messageWithUserInfoFallback)
                    }
                }
            }
            try await group.waitForAll()
        }
        let durableRate = rate(count, durableStart.duration(to: clock.now))
        print("ours   durable sends (accepted = recorded + fsynced), \(concurrency) concurrent: \(format(durableRate)) sends/s")
        // NB: on a shared disk the floor drifts by an order of magnitude within seconds, so it is measured
        // again right after the durable run and the ratio is given against both and their mean.
        let batchedAfter = Floors.appendSync(directory: directory, size: 256, count: count, batch: concurrency)
        let mean = (batched + batchedAfter) / 2
        print(
            "floor  append+fdatasync 256 B again, after the durable run: batch \(concurrency): \(format(batchedAfter)) records/s"
        )
        print(
            "ratio  durable sends / batched fsync floor = \(String(format: "%.4f", durableRate / max(mean, 0.001)))x against the mean (before \(String(format: "%.4f", durableRate / max(batched, 0.001)))x, after \(String(format: "%.4f", durableRate / max(batchedAfter, 0.001)))x; target ≥ 0.8x; batch size \(concurrency))"
        )

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

    static func makeConnection(_ origin: DeviceOrigin, _ directory: String) throws -> (WatchConnection, SocketSession) {
        let dir = directory + "/" + (origin == .phone ? "phone" : "watch")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let session = try SocketSession(
            socketPath: directory + "/link.sock", role: origin == .watch ? .listen : .connect, directory: dir)
        var configuration = LinkEngine.Configuration()
        configuration.outboxLimit = 1_000_000
        let connection = WatchConnection(
            origin: origin, session: session, store: try FileStore(path: dir + "/watchlink.log"), clock: ContinuousClock(),
            configuration: configuration)
        return (connection, session)
    }

    static func serve(_ directory: String) async throws {
        Floors.serveEcho(path: directory + "/echo.sock")
        let (connection, _) = try makeConnection(.watch, directory)
        try connection.register(Echo.self) { $0 }
        try connection.register(Record.self) { _ in WatchAck() }
        try await connection.start()
        while getppid() != 1 { try await Task.sleep(for: .milliseconds(200)) }
    }
}
