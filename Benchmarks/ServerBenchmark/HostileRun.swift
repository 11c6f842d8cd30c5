import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The server under hostile load, against the real `pwakit server` (production scrypt cost): a signed-in
/// user's `GET /v1/me` latency alone (the floor) and during a registration flood from many addresses,
/// and the server's resident memory before and with 1,000 idle connections open.
enum HostileRun {
    struct Options {
        var pwakit = ".build/debug/pwakit"
        var seconds = 10
        var flooders = 50
        var idleConnections = 1000
    }

    static func main(_ options: Options) async throws {
        raiseDescriptorLimit()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let seed = work.appendingPathComponent("seed.json")
        try Data(#"{"users":[{"email":"me@example.com","password":"benchmark-password"}]}"#.utf8).write(to: seed)
        let server = Child(
            options.pwakit,
            [
                "server", "--port", "0", "--data-dir", work.appendingPathComponent("data").path, "--seed", seed.path,
                "--trust-forwarded-for",
            ])
        try server.start()
        defer { server.stop() }
        let line = try server.waitForLine(prefix: "PWAKit server listening on ")
        guard let range = line.range(of: "http://"),
            let base = URL(string: String(line[range.lowerBound...]).components(separatedBy: " ")[0])
        else { throw BenchmarkError("unexpected line: \(line)") }
        let port = base.port ?? 0
        print(
            "PWAKit server under hostile load: \(options.pwakit), production scrypt cost, \(options.seconds) s per phase, \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )

        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = options.flooders + 4
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration)
        let token = try await signIn(session, base)

        // 1. The floor: /v1/me alone.
        _ = try await meLatencies(session, base, token: token, count: 20)
        let alone = try await meLatencies(session, base, token: token, seconds: options.seconds)

        // 2. /v1/me while registrations flood in from many addresses.
        let flood = Flood()
        let flooders = (0..<options.flooders).map { worker in
            Task { await flood.run(session, base, worker: worker) }
        }
        // NB: past the first burst, so the samples see the flood's steady state (a queue of hashes always full).
        try await Task.sleep(for: .seconds(3))
        let during = try await meLatencies(session, base, token: token, seconds: options.seconds)
        await flood.stop()
        for task in flooders { await task.value }
        let counts = await flood.counts

        print("")
        print("| measurement | p50 | p95 | samples |")
        print("|---|---|---|---|")
        print(
            String(
                format: "| GET /v1/me alone (floor) | %.2f ms | %.2f ms | %d |", percentile(alone, 50), percentile(alone, 95),
                alone.count))
        print(
            String(
                format: "| GET /v1/me during the flood | %.2f ms | %.2f ms | %d |", percentile(during, 50),
                percentile(during, 95), during.count))
        print(String(format: "ratio p95 during / alone: %.2f (goal <= 2)", percentile(during, 95) / percentile(alone, 95)))
        print(
            "flood: \(options.flooders) clients, \(counts.values.reduce(0, +)) registrations in \(String(format: "%.1f", await flood.elapsed)) s: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key < 0 ? "client error" : String($0.key))" }
                .joined(separator: ", "))

        if let first = await flood.firstError { print("first client-side error of the flood: \(first.prefix(300))") }

        // 3. Memory: resident before and with idle connections open.
        let pid = server.process.processIdentifier
        let before = residentKiB(pid)
        var sockets: [Int32] = []
        for _ in 0..<options.idleConnections {
            let descriptor = connectLoopback(port: port)
            if descriptor >= 0 { sockets.append(descriptor) }
        }
        try await Task.sleep(for: .seconds(2))
        let after = residentKiB(pid)
        let stillAnswers = try await meLatencies(session, base, token: token, count: 5)
        for descriptor in sockets { close(descriptor) }
        print(
            "memory: \(before / 1024) MiB resident before, \(after / 1024) MiB with \(sockets.count) idle connections open "
                + String(
                    format: "(%.1f KiB each); /v1/me meanwhile %.2f ms", Double(after - before) / Double(max(1, sockets.count)),
                    percentile(stillAnswers, 50)))
    }

    static func signIn(_ session: URLSession, _ base: URL) async throws -> String {
        var request = URLRequest(url: base.appendingPathComponent("v1/auth/login"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("192.0.2.1", forHTTPHeaderField: "X-Forwarded-For")
        request.httpBody = Data(#"{"email":"me@example.com","password":"benchmark-password"}"#.utf8)
        let (data, _) = try await session.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = object["accessToken"] as? String
        else { throw BenchmarkError("sign-in failed: \(String(decoding: data, as: UTF8.self))") }
        return token
    }

    /// Milliseconds per `GET /v1/me`, one every 10 ms or so for `seconds`.
    static func meLatencies(_ session: URLSession, _ base: URL, token: String, seconds: Int) async throws -> [Double] {
        var samples: [Double] = []
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            samples += try await meLatencies(session, base, token: token, count: 1)
            try await Task.sleep(for: .milliseconds(10))
        }
        return samples
    }

    /// Milliseconds per sequential `GET /v1/me`.
    static func meLatencies(_ session: URLSession, _ base: URL, token: String, count: Int) async throws -> [Double] {
        var request = URLRequest(url: base.appendingPathComponent("v1/me"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            let (_, response) = try await session.data(for: request)
            let elapsed = clock.now - start
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchmarkError("/v1/me failed") }
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        return samples
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p / 100).rounded(.up)) - 1)]
    }

    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func connectLoopback(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Registration clients: each posts registrations one after another, every one from its own address.
actor Flood {
    private var stopped = false
    private(set) var counts: [Int: Int] = [:]
    private let started = ContinuousClock.now
    private var ended: ContinuousClock.Instant?

    var elapsed: Double {
        let duration = (ended ?? .now) - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func stop() {
        stopped = true
        ended = .now
    }

    /// The first client-side error, for the report.
    private(set) var firstError: String?

    func record(_ status: Int, error: (any Error)? = nil) {
        counts[status, default: 0] += 1
        if let error, firstError == nil { firstError = "\(error)" }
    }

    nonisolated func run(_ session: URLSession, _ base: URL, worker: Int) async {
        var sequence = 0
        while await !stopped {
            sequence += 1
            var request = URLRequest(url: base.appendingPathComponent("v1/auth/register"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("10.\(worker).\(sequence / 250 % 250).\(sequence % 250 + 1)", forHTTPHeaderField: "X-Forwarded-For")
            request.httpBody = Data(#"{"email":"flood-\#(worker)-\#(sequence)@example.com","password":"flood-password"}"#.utf8)
            do {
                let (_, response) = try await session.data(for: request)
                await record((response as? HTTPURLResponse)?.statusCode ?? -1)
            } catch {
                await record(-1, error: error)
            }
        }
    }
}
