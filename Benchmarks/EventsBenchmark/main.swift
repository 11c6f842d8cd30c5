import BenchmarkArguments
import Foundation
import Hummingbird
import HummingbirdTesting
import PWAKitAPI
import PWAKitEvents
import PWAKitRetry
import PWAKitServer

#if canImport(Glibc)
    import Glibc
#endif

// EventsBenchmark: each figure against a floor measured in the same run.
//   1. recording into the buffer (a line appended to this process's chunk and fdatasync'd; every 64 events
//      the chunk sealed by a rename and a directory fsync) / the same bytes appended to one file with an
//      fdatasync after each (the cheapest durable write of one event); also shown: the same bytes as one
//      new file per event with an fsync and no rename;
//   2. relaying N buffered events to an in-process server (SQLite) / posting the same batches with the
//      same client and no buffer (read, delete, lock).
// Usage: EventsBenchmark [--events N] [--runs R]

let (eventCount, runs) = BenchmarkArguments.parse(
    name: "EventsBenchmark", usage: "usage: EventsBenchmark [--events N] [--runs R]   (2000 events, 5 runs if not given)"
) { arguments in
    (try arguments.integer("--events", default: 2000), try arguments.integer("--runs", default: 5))
}
let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pwakit-events-bench-\(getpid())")
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = start.duration(to: .now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
}

func asyncTime(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = start.duration(to: .now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
}

func events(_ count: Int, seed: UInt64) -> [EventPayload] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { index in
        let now = Int64(1_800_000_000_000 + index)
        return EventPayload(
            id: EventID.make(milliseconds: now, using: &random), name: "screen_view", timestamp: now, source: "app",
            properties: ["screen": .string("home"), "index": .number(Double(index)), "signed_in": .bool(true)])
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

// 1. Recording.
var appendRates: [Double] = []
var fileRates: [Double] = []
var bufferRates: [Double] = []
for run in 0..<runs {
    let batch = events(eventCount, seed: UInt64(run))
    let bytes = try batch.map { Array(try encoder.encode($0)) }
    let appendPath = work.appendingPathComponent("append-\(run).log").path
    appendRates.append(
        Double(eventCount)
            / time {
                let fd = open(appendPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
                for event in bytes {
                    _ = event.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    fdatasync(fd)
                }
                close(fd)
            })
    let filesPath = work.appendingPathComponent("files-\(run)").path
    mkdir(filesPath, 0o700)
    fileRates.append(
        Double(eventCount)
            / time {
                for (index, event) in bytes.enumerated() {
                    let fd = open("\(filesPath)/\(index).json", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                    _ = event.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    fsync(fd)
                    close(fd)
                }
            })
    let buffer = try EventBuffer(
        directory: work.appendingPathComponent("buffer-\(run)"), limits: EventBufferLimits(maximumEvents: eventCount * 2))
    bufferRates.append(Double(eventCount) / (try time { for event in batch { try buffer.record(event) } }))
}
let appendRate = median(appendRates)
let bufferRate = median(bufferRates)
print(
    String(
        format:
            "record: buffer %.0f events/s, floor (append + fdatasync each) %.0f events/s, ratio %.2f; one file + fsync each %.0f events/s",
        bufferRate, appendRate, bufferRate / appendRate, median(fileRates)))

// 2. Relaying.
var configuration = ServerConfiguration()
configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
let server = try await PlatformServer.make(
    storage: try await SQLStorage.sqlite(path: work.appendingPathComponent("server.sqlite").path),
    blobs: try FileBlobStore(root: work.appendingPathComponent("blobs")), configuration: configuration)
_ = try await server.apply(ServerSeed(users: [.init(email: "bench@example.com", password: "bench-password-1", role: "user")]))
let app = Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
try await app.test(.live) { client in
    guard let port = client.port else { return }
    let api = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, retry: .none)
    let token = try await api.login(LoginRequest(email: "bench@example.com", password: "bench-password-1")).accessToken
    var floorRates: [Double] = []
    var relayRates: [Double] = []
    for run in 0..<runs {
        let batch = events(eventCount, seed: UInt64(1000 + run))
        floorRates.append(
            Double(eventCount)
                / (try await asyncTime {
                    for start in stride(from: 0, to: batch.count, by: 100) {
                        let body = try APIClient.encode(
                            EventBatchRequest(events: Array(batch[start..<min(start + 100, batch.count)])))
                        let response = try await api.exchange("POST", "/v1/events", body: body, credential: .bearer(token))
                        precondition(response.status == 200)
                    }
                }))
        let relayed = events(eventCount, seed: UInt64(2000 + run))
        let buffer = try EventBuffer(
            directory: work.appendingPathComponent("relay-\(run)"), limits: EventBufferLimits(maximumEvents: eventCount * 2))
        for event in relayed { try buffer.record(event) }
        let relay = try EventRelay(buffer: buffer, client: api, accessToken: { token }, batchSize: 100)
        relayRates.append(
            Double(eventCount)
                / (try await asyncTime {
                    let report = try await relay.flush()
                    precondition(report.accepted == eventCount)
                }))
    }
    let floor = median(floorRates)
    let relay = median(relayRates)
    print(
        String(
            format: "relay: %.0f events/s, floor (the same batches posted directly) %.0f events/s, ratio %.2f",
            relay, floor, relay / floor))
}
try await server.storage.close()
