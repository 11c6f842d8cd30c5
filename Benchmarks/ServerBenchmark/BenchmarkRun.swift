import Crypto
import Foundation
import PWAKitBundles
import PWAKitServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Orchestrates one benchmark run on loopback: server and nginx pinned to core 0, wrk to core 1.
enum BenchmarkRun {
    struct Options {
        var duration = 5
        var connections = 32
        var users = 1000
        var runs = 1
        var blobsOnly = false
    }

    static func main(_ options: Options) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        print(
            "PWAKit server benchmark: wrk -t1 -c\(options.connections) -d\(options.duration)s; server and nginx on core 0, wrk on core 1;"
                + " \(options.runs) run(s) of each pair, floor first"
        )

        var rows: [Row] = []
        let postgres = options.blobsOnly ? nil : ProcessInfo.processInfo.environment["PWAKIT_TEST_POSTGRES_URL"]
        // NB: a database of its own, so the catalog holds the benchmark's apps only, not every test's.
        let database = try postgres.map { try BenchmarkDatabase(serverURL: $0) }
        defer { database?.drop() }
        let engines: [(String, String?)] = [("SQLite", nil)] + (database.map { [("PostgreSQL", $0.url)] } ?? [])
        for (position, engine) in engines.enumerated() {
            let dataDir = work.appendingPathComponent("data-\(position)")
            let blobs = try FileBlobStore(root: dataDir.appendingPathComponent("blobs"))
            let hashes = try writeBlobs(into: blobs)
            let server = Child(
                try which("taskset"),
                ["-c", "0", CommandLine.arguments[0], "serve", dataDir.path, "\(options.users)"] + (engine.1.map { [$0] } ?? []))
            try server.start()
            defer { server.stop() }
            let port = try server.waitForLine(prefix: "listening").split(separator: " ")[1]
            let base = "http://127.0.0.1:\(port)"
            if !options.blobsOnly {
                let tokens = try await login(base: base, users: options.users)
                let tokenFile = work.appendingPathComponent("tokens-\(position).txt")
                try tokens.joined(separator: "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
                var row = Row(label: "catalog (\(engine.0), \(tokens.count) users) vs authenticated hello", target: 0.7)
                for _ in 0..<options.runs {
                    let hello = try WrkResult.measure(
                        url: base + "/bench/hello", script: try script(work, tokenFile, "/bench/hello"), core: 1,
                        duration: options.duration, connections: options.connections)
                    let catalog = try WrkResult.measure(
                        url: base + "/v1/apps", script: try script(work, tokenFile, "/v1/apps"), core: 1,
                        duration: options.duration, connections: options.connections)
                    row.runs.append(Pair(catalog, hello))
                }
                rows.append(row)
            }

            if position == 0 {
                let nginx = try startNginx(work: work, blobRoot: blobs.root)
                defer { nginx.stop() }
                for (label, hash) in hashes {
                    var row = Row(label: "blob \(label) vs nginx sendfile", target: 0.8)
                    for _ in 0..<options.runs {
                        let floor = try WrkResult.measure(
                            url: "http://127.0.0.1:\(nginxPort)/v1/blobs/\(hash)", script: nil, core: 1,
                            duration: options.duration, connections: options.connections)
                        let ours = try WrkResult.measure(
                            url: "\(base)/v1/blobs/\(hash)", script: nil, core: 1,
                            duration: options.duration, connections: options.connections)
                        row.runs.append(Pair(ours, floor))
                    }
                    rows.append(row)
                }
            }
        }
        print("")
        if options.runs > 1 {
            print("Each run (ours req/s / floor req/s = ratio):")
            for row in rows {
                let runs = row.runs.map {
                    String(format: "%.0f/%.0f=%.2f", $0.ours.requestsPerSecond, $0.floor.requestsPerSecond, $0.ratio)
                }
                print("  \(row.label): \(runs.joined(separator: "  "))")
            }
            print("")
            print("Medians over \(options.runs) runs; the ratio is the median of each run's ratio:")
        }
        print(
            pad("measurement", 58), pad("ours req/s", 12), pad("ours p99", 10), pad("floor req/s", 12), pad("floor p99", 10),
            pad("ratio", 7), "target")
        for row in rows {
            let ratio = median(row.runs.map(\.ratio))
            print(
                pad(row.label, 58), pad(String(format: "%.0f", median(row.runs.map(\.ours.requestsPerSecond))), 12),
                pad(String(format: "%.2fms", median(row.runs.map(\.ours.p99Milliseconds))), 10),
                pad(String(format: "%.0f", median(row.runs.map(\.floor.requestsPerSecond))), 12),
                pad(String(format: "%.2fms", median(row.runs.map(\.floor.p99Milliseconds))), 10),
                pad(String(format: "%.2f", ratio), 7),
                String(format: "≥ %.1f %@", row.target, ratio >= row.target ? "met" : "NOT met"))
            let ours = row.runs.map(\.ours.non2xx).reduce(0, +)
            let floor = row.runs.map(\.floor.non2xx).reduce(0, +)
            if ours > 0 || floor > 0 { print("  warning: non-2xx responses (ours \(ours), floor \(floor))") }
        }
    }

    /// One measurement against its floor, over one or more runs.
    struct Row {
        let label: String
        let target: Double
        var runs: [Pair] = []
    }

    /// Ours and the floor, measured one after the other.
    struct Pair {
        let ours: WrkResult
        let floor: WrkResult
        var ratio: Double { ours.requestsPerSecond / floor.requestsPerSecond }

        init(_ ours: WrkResult, _ floor: WrkResult) {
            self.ours = ours
            self.floor = floor
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static let nginxPort = 18_099

    static func writeBlobs(into store: FileBlobStore) throws -> [(String, String)] {
        var generator = SystemRandomNumberGenerator()
        var result: [(String, String)] = []
        for (label, size) in [("4 KiB", 4096), ("1 MiB", 1 << 20)] {
            let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let hash = SHA256.hex(of: bytes)
            let path = URL(fileURLWithPath: store.path(for: hash))
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: path)
            result.append((label, hash))
        }
        return result
    }

    static func login(base: String, users: Int) async throws -> [String] {
        var tokens: [String] = []
        for index in 0..<users {
            var request = URLRequest(url: URL(string: base + "/v1/auth/login")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"email":"bench-\#(index)@example.com","password":"bench-password"}"#.utf8)
            let (data, _) = try await URLSession.shared.data(for: request)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let token = object["accessToken"] as? String
            else {
                throw BenchmarkError("login of bench-\(index) failed: \(String(decoding: data, as: UTF8.self))")
            }
            tokens.append(token)
        }
        return tokens
    }

    static func script(_ work: URL, _ tokens: URL, _ path: String) throws -> String {
        let lua = """
            local tokens = {}
            for line in io.lines("\(tokens.path)") do tokens[#tokens + 1] = line end
            local i = 0
            request = function()
              i = i + 1
              return wrk.format("GET", "\(path)", { ["Authorization"] = "Bearer " .. tokens[(i % #tokens) + 1] })
            end
            """
        let url = work.appendingPathComponent("wrk-\(UUID().uuidString).lua")
        try lua.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func startNginx(work: URL, blobRoot: URL) throws -> Child {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("nginx.conf")
        let prefix = work.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let config = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "__PREFIX__", with: prefix.path)
            .replacingOccurrences(of: "__PORT__", with: "\(nginxPort)")
            .replacingOccurrences(of: "__BLOBS__", with: blobRoot.path)
        let configURL = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let nginx = Child(try which("taskset"), ["-c", "0", try which("nginx"), "-p", prefix.path, "-c", configURL.path])
        try nginx.start()
        // NB: nginx prints nothing when ready; it writes its pid file once it listens.
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: prefix.appendingPathComponent("nginx.pid").path) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nginx
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
