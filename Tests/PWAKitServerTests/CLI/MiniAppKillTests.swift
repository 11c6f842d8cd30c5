import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `pwakit miniapp install` process killed with SIGKILL at random instants while it
/// updates a store: every time, the store is consistent and runs either the old release or the
/// new one, and a later install completes from what was kept.
@Suite("pwakit miniapp install under kill -9", .serialized)
struct MiniAppKillTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["PWAKIT_KILL_ROUNDS"] ?? "") ?? 60

    struct StoreStatus: Decodable {
        struct App: Decodable {
            var appId: String
            var active: String?
            var activeVersion: String?
            var pending: String?
        }
        var apps: [App]
        var problems: [String]?
    }

    static func status(_ store: URL) async throws -> (Int32, StoreStatus?, String) {
        let result = try await PWAKitBinary.run(["miniapp", "status", "--store", store.path, "--verify", "--json"])
        return (result.status, try? JSONDecoder().decode(StoreStatus.self, from: Data(result.stdout.utf8)), result.stderr)
    }

    /// A publisher key and a `pwakit server` seeded with an administrator and `apps`, each signed by that key.
    static func platform(_ work: URL, apps: [String]) async throws -> (server: ServerProcess, keyPath: String, publicKey: String)
    {
        let keyPath = work.appendingPathComponent("key.json").path
        let generated = try await PWAKitBinary.run(["keys", "generate", "--output", keyPath])
        let publicKey = try #require(
            JSONBody(try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)))["publicKey"]?.string)
        let entries = apps.map { #"{"id":"\#($0)","name":"\#($0)","publisherKeys":["\#(publicKey)"]}"# }
        let seed = """
            {"users":[{"email":"admin@example.com","password":"admin-password","role":"admin"}],
             "apps":[\(entries.joined(separator: ","))]}
            """
        try CommandLineTests.write(seed, to: work.appendingPathComponent("seed.json"))
        let server = try await ServerProcess.start([
            "--data-dir", work.appendingPathComponent("data").path, "--seed", work.appendingPathComponent("seed.json").path,
        ])
        return (server, keyPath, publicKey)
    }

    @Test("kill -9 at random points never leaves a corrupt or missing active release")
    func killDuringInstall() async throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (server, keyPath, publicKey) = try await Self.platform(work, apps: ["demo"])
        do {
            let account = ["--server", server.baseURL.absoluteString, "--email", "admin@example.com"]
            let environment = ["PWAKIT_PASSWORD": "admin-password"]
            // Release 1: 40 files; release 2 changes 30 of them and adds 20 larger ones.
            let site = work.appendingPathComponent("site")
            try CommandLineTests.write("<h1>v1</h1>", to: site.appendingPathComponent("index.html"))
            for index in 0..<40 {
                try CommandLineTests.write(
                    "v1 file \(index) " + String(repeating: "a", count: 4000), to: site.appendingPathComponent("f\(index).js"))
            }
            func release(_ version: String) async throws -> String {
                let path = work.appendingPathComponent("release-\(version).json").path
                let bundled = try await PWAKitBinary.run([
                    "bundle", site.path, "--app-id", "demo", "--version", version, "--key", keyPath, "--output", path,
                ])
                #expect(bundled.status == 0, "\(bundled.stderr)")
                let published = try await PWAKitBinary.run(
                    ["publish", site.path, "--release", path] + account, environment: environment)
                #expect(published.status == 0, "\(published.stderr)")
                return published.stdout
            }
            _ = try await release("1.0.0")
            let base = work.appendingPathComponent("base-store")
            let installArguments = ["miniapp", "install", "demo", "--trust-key", publicKey, "--now"] + account
            let first = try await PWAKitBinary.run(installArguments + ["--store", base.path], environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            let (_, baseStatus, _) = try await Self.status(base)
            let v1 = try #require(baseStatus?.apps.first?.active)

            try CommandLineTests.write("<h1>v2</h1>", to: site.appendingPathComponent("index.html"))
            for index in 0..<30 {
                try CommandLineTests.write(
                    "v2 file \(index) " + String(repeating: "b", count: 6000), to: site.appendingPathComponent("f\(index).js"))
            }
            for index in 40..<60 {
                try CommandLineTests.write(
                    "v2 new \(index) " + String(repeating: "c", count: 30000), to: site.appendingPathComponent("f\(index).js"))
            }
            _ = try await release("2.0.0")

            // How long an uninterrupted update takes, to spread the kills over it.
            let calibration = work.appendingPathComponent("calibration")
            try FileManager.default.copyItem(at: base, to: calibration)
            let started = ContinuousClock.now
            let full = try await PWAKitBinary.run(
                installArguments + ["--store", calibration.path, "--concurrency", "1"], environment: environment)
            let span = ContinuousClock.now - started
            #expect(full.status == 0, "\(full.stderr)")
            let (_, calibrated, _) = try await Self.status(calibration)
            let v2 = try #require(calibrated?.apps.first?.active)
            #expect(v2 != v1)

            let progressLines = full.stderr.components(separatedBy: "fetched ").count - 1
            #expect(progressLines > 50)
            var killedMidway = 0
            var outcomes: [String: Int] = [:]
            for round in 0..<Self.rounds {
                let store = work.appendingPathComponent("store-\(round)")
                try FileManager.default.copyItem(at: base, to: store)
                let process = Process()
                process.executableURL = PWAKitBinary.url
                process.arguments = installArguments + ["--store", store.path, "--concurrency", "1"]
                process.environment = ProcessInfo.processInfo.environment.merging([
                    "PWAKIT_EXIT_WITH_PARENT": String(ProcessInfo.processInfo.processIdentifier)
                ]) { $1 }
                .merging(environment) { $1 }
                process.standardOutput = FileHandle.nullDevice
                // NB: the kill point is a number of progress lines (each a chunk or a finished file), not a time, so
                // how busy the machine is does not decide whether the kill lands mid-install; one round in five kills
                // at a random time instead, before or during sign-in; a target past the last line lets the install finish.
                let errors = Pipe()
                process.standardError = errors
                let killAfter = round % 5 == 0 ? nil : Int.random(in: 1...(progressLines + progressLines / 8))
                try process.run()
                // NB: our copy of the pipe's write end is closed so the reader sees end of file when the child is gone;
                // the reader is a plain thread doing blocking reads (no dispatch source on a pipe that is about to close).
                try? errors.fileHandleForWriting.close()
                let reader = ProgressReader(
                    fd: errors.fileHandleForReading.fileDescriptor, pid: process.processIdentifier, killAfter: killAfter)
                reader.start()
                if killAfter == nil {
                    try await Task.sleep(for: span * Double.random(in: 0...0.5))
                    kill(process.processIdentifier, SIGKILL)
                }
                process.waitUntilExit()
                reader.wait()
                if process.terminationReason == .uncaughtSignal { killedMidway += 1 }

                let (code, status, stderr) = try await Self.status(store)
                #expect(code == 0, "round \(round): \(stderr)")
                #expect(status?.problems == [], "round \(round)")
                let active = status?.apps.first?.active
                #expect(active == v1 || active == v2, "round \(round): active \(active ?? "none")")
                outcomes[active == v2 ? "new" : "old", default: 0] += 1

                // A later install completes from what the killed one kept.
                let resumed = try await PWAKitBinary.run(installArguments + ["--store", store.path], environment: environment)
                #expect(resumed.status == 0, "round \(round): \(resumed.stderr)")
                let (_, after, _) = try await Self.status(store)
                #expect(after?.apps.first?.active == v2, "round \(round)")
                #expect(after?.problems == [], "round \(round)")
                try? FileManager.default.removeItem(at: store)
            }
            print(
                "kill -9 rounds: \(Self.rounds), killed mid-install \(killedMidway), old active \(outcomes["old"] ?? 0), new active \(outcomes["new"] ?? 0)"
            )
            #expect(killedMidway >= Self.rounds / 2)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

extension MiniAppKillTests {
    @Test("two install processes on one store at once: both apps installed, shared files stored once, the store consistent")
    func concurrentInstalls() async throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let (server, keyPath, publicKey) = try await Self.platform(work, apps: ["left", "right"])
        do {
            let account = ["--server", server.baseURL.absoluteString, "--email", "admin@example.com"]
            let environment = ["PWAKIT_PASSWORD": "admin-password"]
            // Both apps ship the same 30 library files and a page of their own.
            for app in ["left", "right"] {
                let site = work.appendingPathComponent("site-\(app)")
                try CommandLineTests.write("<h1>\(app)</h1>", to: site.appendingPathComponent("index.html"))
                for index in 0..<30 {
                    try CommandLineTests.write(
                        "shared \(index) " + String(repeating: "s", count: 8000),
                        to: site.appendingPathComponent("lib/f\(index).js"))
                }
                let release = work.appendingPathComponent("release-\(app).json").path
                let bundled = try await PWAKitBinary.run([
                    "bundle", site.path, "--app-id", app, "--version", "1.0.0", "--key", keyPath, "--output", release,
                ])
                #expect(bundled.status == 0, "\(bundled.stderr)")
                let published = try await PWAKitBinary.run(
                    ["publish", site.path, "--release", release] + account, environment: environment)
                #expect(published.status == 0, "\(published.stderr)")
            }
            for round in 0..<5 {
                let store = work.appendingPathComponent("store-\(round)").path
                async let left = PWAKitBinary.run(
                    ["miniapp", "install", "left", "--trust-key", publicKey, "--now", "--store", store] + account,
                    environment: environment)
                async let right = PWAKitBinary.run(
                    ["miniapp", "install", "right", "--trust-key", publicKey, "--now", "--store", store] + account,
                    environment: environment)
                let (l, r) = try await (left, right)
                #expect(l.status == 0, "round \(round): \(l.stderr)")
                #expect(r.status == 0, "round \(round): \(r.stderr)")
                let (code, status, stderr) = try await Self.status(URL(fileURLWithPath: store))
                #expect(code == 0, "round \(round): \(stderr)")
                #expect(status?.problems == [], "round \(round)")
                #expect(status?.apps.map(\.appId).sorted() == ["left", "right"])
                #expect(status?.apps.allSatisfy { $0.active != nil } == true)
                let blobs = try FileManager.default.subpathsOfDirectory(atPath: store + "/blobs").filter { $0.count > 3 }
                #expect(blobs.count == 32, "round \(round): 30 shared files and two pages, each stored once")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// Reads a child's standard error with blocking reads on a thread of its own, counting progress
/// lines, and kills the child with SIGKILL once `killAfter` of them have arrived.
private final class ProgressReader: Sendable {
    private let fd: Int32
    private let pid: Int32
    private let killAfter: Int?
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, pid: Int32, killAfter: Int?) {
        self.fd = fd
        self.pid = pid
        self.killAfter = killAfter
    }

    func start() {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var carried = ""
            var count = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                // NB: the last few characters are carried over, so a marker split across two reads is counted once.
                let text = carried + String(decoding: buffer[0..<n], as: UTF8.self)
                count += text.components(separatedBy: "fetched ").count - 1
                carried = String(text.suffix(7))
                if let killAfter, count >= killAfter { kill(pid, SIGKILL) }
            }
            done.signal()
        }
        thread.start()
    }

    func wait() { done.wait() }
}
