import Foundation

/// Latency samples in nanoseconds.
struct Samples {
    var values: [Int64] = []

    mutating func add(_ duration: Duration) {
        values.append(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    mutating func add(contentsOf other: Samples) {
        values += other.values
    }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return Double(sorted[index]) / 1000
    }

    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

func rate(_ count: Int, _ elapsed: Duration) -> Double {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / max(seconds, 1e-9)
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

/// The filesystem type of the mount that holds `path`, from /proc/mounts.
func filesystemType(of path: String) -> String {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "unknown" }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var best = ("", "unknown")
    for line in mounts.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count >= 3 else { continue }
        let point = String(fields[1])
        let inside = resolved == point || resolved.hasPrefix(point == "/" ? "/" : point + "/")
        if inside && point.count > best.0.count { best = (point, String(fields[2])) }
    }
    return "\(best.1) (mounted at \(best.0))"
}
