import Foundation

/// One wrk measurement: requests per second and 99th-percentile latency.
struct WrkResult {
    let requestsPerSecond: Double
    let p99Milliseconds: Double
    let non2xx: Int

    /// Runs wrk pinned to `core` with an optional Lua script and parses its `--latency` report.
    static func measure(url: String, script: String?, core: Int, duration: Int, connections: Int) throws -> WrkResult {
        var arguments = ["-c", "\(core)", try which("wrk"), "-t1", "-c\(connections)", "-d\(duration)s", "--latency"]
        if let script { arguments += ["-s", script] }
        arguments.append(url)
        let output = try runToCompletion(try which("taskset"), arguments)
        return try parse(output)
    }

    static func parse(_ output: String) throws -> WrkResult {
        var rps: Double?
        var p99: Double?
        var non2xx = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), fields.count >= 2 { rps = Double(fields[1]) }
            if fields.first == "99%", fields.count >= 2 { p99 = milliseconds(String(fields[1])) }
            if line.contains("Non-2xx or 3xx responses:"), let last = fields.last { non2xx = Int(last) ?? 0 }
        }
        guard let rps, let p99 else { throw BenchmarkError("cannot read wrk output:\n\(output)") }
        return WrkResult(requestsPerSecond: rps, p99Milliseconds: p99, non2xx: non2xx)
    }

    private static func milliseconds(_ text: String) -> Double? {
        for (suffix, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * factor }
        }
        return nil
    }
}
