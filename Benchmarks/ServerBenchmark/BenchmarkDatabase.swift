import Foundation

/// A PostgreSQL database of the benchmark's own, created with `psql` next to the one `serverURL` names
/// and dropped at the end.
struct BenchmarkDatabase {
    let url: String
    private let serverURL: String
    private let name: String

    init(serverURL: String) throws {
        guard let slash = serverURL.lastIndex(of: "/") else { throw BenchmarkError("PWAKIT_TEST_POSTGRES_URL has no database") }
        self.serverURL = serverURL
        name = "pwakit_bench_\(Int(Date().timeIntervalSince1970))_\(Int.random(in: 0..<100_000))"
        url = serverURL[..<slash] + "/" + name
        _ = try runToCompletion(try which("psql"), [serverURL, "-qc", "CREATE DATABASE \(name)"])
    }

    func drop() {
        if (try? runToCompletion(try which("psql"), [serverURL, "-qc", "DROP DATABASE \(name)"])) == nil {
            FileHandle.standardError.write(Data("ServerBenchmark: could not drop database \(name)\n".utf8))
        }
    }
}
