import BenchmarkArguments
import Crypto
import Foundation
import PWAKitAPI
import PWAKitEncoding
import PWAKitServer

// Device-signed requests verified per second by the server (header parsing, the clock-skew check,
// the device read, the Ed25519 verify over method, target and body hash, and the nonce written to
// the database to refuse replays) against the floor measured in the same run: bare Ed25519
// verifies of the same signatures. SQLite in a file (as `pwakit server --data-dir` runs it), and
// PostgreSQL too when PWAKIT_BENCH_POSTGRES_URL is set.
//   swift run -c release IdentityBenchmark [requests] [--runs N]

let (total, runs) = BenchmarkArguments.parse(
    name: "IdentityBenchmark", usage: "usage: IdentityBenchmark [requests] [--runs N]   (5000 requests, 3 runs if not given)"
) { arguments in
    (try arguments.leadingInteger("requests", default: 5_000), try arguments.integer("--runs", default: 3))
}
let parallel = 8

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let begun = clock.now
    try await body()
    let elapsed = clock.now - begun
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// One engine's measurement: the floor and ours, sequential and with `parallel` callers.
func measure(engine: String, storage: SQLStorage) async throws {
    var configuration = ServerConfiguration()
    // NB: the key the test suites wrap the token-signing key with, so a database they share opens here too.
    configuration.keyWrappingKey = Data(repeating: 0x5A, count: 32)
    let server = try await PlatformServer.make(
        storage: storage,
        blobs: try FileBlobStore(root: FileManager.default.temporaryDirectory.appendingPathComponent("ib-blobs")),
        configuration: configuration)
    let suffix = UUID().uuidString.prefix(8).lowercased()
    let user = UserRecord(
        id: "bench-user-\(suffix)", email: "bench-\(suffix)@example.com", displayName: "Bench", passwordHash: "x", role: .user,
        createdAt: Date())
    _ = try await storage.insertUser(user)
    let deviceKey = Curve25519.Signing.PrivateKey()
    let device = EnrolledDeviceRecord(
        id: "bench-device-\(suffix)", userId: user.id, name: "bench",
        deviceKey: Base64URL.encode(deviceKey.publicKey.rawRepresentation),
        pinKey: Base64URL.encode(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation), createdAt: Date())
    guard try await storage.enrolDevice(device, limit: 1) else { fatalError("could not enrol the benchmark device") }
    let body = Data(#"{"decision":"deny","notMe":false}"#.utf8)
    let target = "/v1/identity/device/transactions/abc/answer"

    func proofs(_ count: Int) throws -> [(header: String, input: Data, signature: [UInt8])] {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return try (0..<count).map { _ in
            var proof = DeviceProof(
                deviceId: device.id, time: now, nonce: Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255) }),
                signature: [])
            let input = proof.signingInput(method: "POST", target: target, body: body)
            proof.signature = Array(try deviceKey.signature(for: input))
            return (proof.headerValue, input, proof.signature)
        }
    }

    var floors: [Double] = []
    var sequential: [Double] = []
    var concurrent: [Double] = []
    for run in 1...runs {
        let batch = try proofs(total)
        let publicKey = deviceKey.publicKey
        let floor = await seconds {
            var valid = 0
            for proof in batch where publicKey.isValidSignature(proof.signature, for: proof.input) { valid += 1 }
            precondition(valid == total)
        }
        let ours = try await seconds {
            for proof in batch {
                _ = try await server.verifyDeviceProof(header: proof.header, method: "POST", target: target, body: body)
            }
        }
        let more = try proofs(total)
        let wide = try await seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<parallel {
                    group.addTask {
                        for index in stride(from: lane, to: total, by: parallel) {
                            _ = try await server.verifyDeviceProof(
                                header: more[index].header, method: "POST", target: target, body: body)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        floors.append(Double(total) / floor)
        sequential.append(Double(total) / ours)
        concurrent.append(Double(total) / wide)
        print(
            String(
                format: "%@ run %d: floor %.0f verifies/s; ours %.0f/s (1 caller), %.0f/s (%d callers)", engine, run,
                floors.last!, sequential.last!, concurrent.last!, parallel))
    }
    let ratios = zip(sequential, floors).map { $0 / $1 }
    let wideRatios = zip(concurrent, floors).map { $0 / $1 }
    print(
        String(
            format: "%@ median of %d runs: floor %.0f/s; ours %.0f/s = %.3f× (1 caller), %.0f/s = %.3f× (%d callers)", engine,
            runs, median(floors), median(sequential), median(ratios), median(concurrent), median(wideRatios), parallel))
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-identity-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let sqlite = try await SQLStorage.sqlite(path: directory.appendingPathComponent("bench.sqlite").path)
try await measure(engine: "sqlite", storage: sqlite)
try await sqlite.close()
if let url = ProcessInfo.processInfo.environment["PWAKIT_BENCH_POSTGRES_URL"] {
    let postgres = try await SQLStorage.postgres(url: url, maximumConnections: 10)
    try await measure(engine: "postgres", storage: postgres)
    try await postgres.close()
}
