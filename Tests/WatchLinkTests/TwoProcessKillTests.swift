import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real demo binary as phone and watch over a Unix socket, `kill -9`s each mid-stream,
/// restarts it, and checks: every step settled, none ran twice, steps ran in order, and the shared
/// state both processes report converged; every durable post settled and none ran twice; a file
/// queued by a killed phone arrives once.
@Suite(.serialized) struct TwoProcessKillTests {
    final class LineBuffer: Sendable {
        let lines = Mutex<[String]>([])
        let partial = Mutex(Data())
        /// Whether the end of the output was read (every line the process wrote is in ``lines``).
        let ended = Mutex(false)

        func append(_ chunk: Data) {
            partial.withLock { data in
                data.append(chunk)
                while let newline = data.firstIndex(of: 0x0A) {
                    let line = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
                    data.removeSubrange(data.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
        }
    }

    final class Child: Sendable {
        let process: Process
        let buffer = LineBuffer()

        init(_ binary: URL, _ arguments: [String]) throws {
            process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            let buffer = self.buffer
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let chunk = handle.availableData
                guard chunk.isEmpty else { return buffer.append(chunk) }
                handle.readabilityHandler = nil
                buffer.ended.withLock { $0 = true }
            }
            try process.run()
        }

        var output: [String] { buffer.lines.withLock { $0 } }

        /// Waits until the output was read to its end, so a line the process wrote just before it
        /// exited (or was killed) is in ``output``: its reader runs on a thread of its own, which
        /// may not have read the last lines when `waitUntilExit()` returns. Gives up after `limit`.
        func outputEnded(limit: Duration = .seconds(30)) async {
            let deadline = ContinuousClock.now.advanced(by: limit)
            while !buffer.ended.withLock({ $0 }), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }

        func kill9() {
            // NB: only a process still running: the pid of one already reaped may be another's now.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// A child still running when its test lets go of it (a wait that gave up, a failed
        /// `#require`) is killed, so no watch serves on after its test.
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    static func demoBinary() -> URL? {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            for base in [directory, directory.deletingLastPathComponent()] {
                let url = base.appendingPathComponent("watchlink-demo")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    func waitFor(_ what: String, limit: Duration = .seconds(120), _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while !condition() {
            if clock.now > deadline { throw WaitError(what: what) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct WaitError: Error, CustomStringConvertible {
        var what: String
        var description: String { "gave up waiting for \(what)" }
    }

    /// One test's phone and watch: the demo binary, and a fresh directory under `/tmp` (short
    /// enough for a Unix socket's address) for their socket, data directories and files.
    struct DemoPair {
        let binary: URL
        let root: URL

        init(_ prefix: String) throws {
            binary = try #require(TwoProcessKillTests.demoBinary(), "watchlink-demo must be built next to the test bundle")
            root = URL(fileURLWithPath: "/tmp/\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        /// A path in the directory.
        func path(_ name: String) -> String { root.appendingPathComponent(name).path }

        /// The file `--limit-file` names.
        var limit: URL { root.appendingPathComponent("limit") }

        /// The arguments of the watch, on the pair's socket and data directory, then `extra`.
        func watch(_ extra: [String] = []) -> [String] {
            ["watch", "--socket", path("s"), "--data", path("watch")] + extra
        }

        /// The arguments of the phone, on the pair's socket and data directory, then `extra`.
        func phone(_ extra: [String]) -> [String] {
            ["phone", "--socket", path("s"), "--data", path("phone")] + extra
        }

        /// Holds the phone's stream before item `n` (the number in ``limit``), or lets it run on
        /// (`nil`), so each kill lands mid-stream however slow or fast the machine is.
        func hold(at n: Int?) throws {
            if let n {
                try Data(String(n).utf8).write(to: limit, options: .atomic)
            } else {
                try? FileManager.default.removeItem(at: limit)
            }
        }

        /// Deletes the directory.
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// The numbers a runs file lists, in order, the set of them, and those listed more than once.
    static func runs(in path: String) throws -> (ran: [Int], seen: Set<Int>, doubled: [Int]) {
        let ran = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        var seen = Set<Int>()
        let doubled = ran.filter { !seen.insert($0).inserted }
        return (ran, seen, doubled)
    }

    /// The README's demo as a new user runs it: help, a phone that says what it waits for, and a
    /// run in which the watch sees the phone's last shared-state value before the phone exits.
    @Test func theDemoDoesWhatItsDocsSay() async throws {
        let binary = try #require(Self.demoBinary(), "watchlink-demo must be built next to the test bundle")
        let help = try Child(binary, ["--help"])
        help.process.waitUntilExit()
        #expect(help.process.terminationStatus == 0)
        try await waitFor("the usage") { help.output.contains { $0.hasPrefix("usage: watchlink-demo watch") } }

        let pair = try DemoPair("wl-demo")
        defer { pair.remove() }
        let phone = try Child(binary, pair.phone(["--count", "20"]))
        try await waitFor("the phone to say it waits") { phone.output.contains { $0.hasPrefix("waiting for the watch on") } }
        let watch = try Child(binary, pair.watch())
        defer { watch.kill9() }
        phone.process.waitUntilExit()
        await phone.outputEnded()
        #expect(phone.process.terminationStatus == 0)
        #expect(phone.output.contains("done ok=20 err=0 health=healthy"), "\(phone.output)")
        #expect(phone.output.contains("watch confirmed mood finished"), "\(phone.output)")
        try await waitFor("the watch to see mood finished") { watch.output.contains("watch sees mood finished") }
    }

    @Test func killingEitherProcessLosesNothingAndRunsNothingTwice() async throws {
        let pair = try DemoPair("wl-kill")
        defer { pair.remove() }
        let binary = pair.binary
        let runs = pair.path("runs")
        let watchArgs = pair.watch(["--runs", runs])
        let count = 300
        let phoneArgs = pair.phone([
            "--count", String(count), "--timeout", "90", "--linger", "120", "--limit-file", pair.limit.path,
        ])
        func hold(at step: Int?) throws { try pair.hold(at: step) }
        try hold(at: 48)

        var watch = try Child(binary, watchArgs)
        var phone = try Child(binary, phoneArgs)
        let firstPhone = phone
        try await waitFor("40 steps") { firstPhone.output.filter { $0.hasPrefix("ok") }.count >= 40 }
        watch.kill9()
        #expect(!firstPhone.output.contains { $0.hasPrefix("done") }, "the watch must die mid-stream")
        try await Task.sleep(for: .milliseconds(300))
        watch = try Child(binary, watchArgs)
        try hold(at: 88)
        try await waitFor("80 steps") { firstPhone.output.filter { $0.hasPrefix("ok") }.count >= 80 }
        phone.kill9()
        await phone.outputEnded()
        let beforeKill = phone.output
        #expect(!beforeKill.contains { $0.hasPrefix("done") }, "the phone must die mid-stream")
        try await Task.sleep(for: .milliseconds(200))
        try hold(at: nil)
        phone = try Child(binary, phoneArgs)
        let secondPhone = phone
        try await waitFor("the restarted phone to finish") { secondPhone.output.contains { $0.hasPrefix("done") } }
        // Both processes print `state mood=…@id last-step=…@id` whenever their shared state changes;
        // after the restarts the latest lines must agree, values and versions alike.
        let finalWatch = watch
        func latestState(_ child: Child) -> String? { child.output.last { $0.hasPrefix("state ") } }
        do {
            try await waitFor("shared state to converge", limit: .seconds(60)) {
                guard let phoneState = latestState(secondPhone), phoneState.contains("mood=finished@") else { return false }
                return latestState(finalWatch) == phoneState
            }
        } catch {
            Issue.record("\(error): phone \(latestState(secondPhone) ?? "none"), watch \(latestState(finalWatch) ?? "none")")
        }
        let converged = latestState(secondPhone) ?? ""
        #expect(converged.contains("last-step=299@"), "the watch's last step reached the phone: \(converged)")
        watch.kill9()
        phone.kill9()
        await phone.outputEnded()

        let (ran, seen, doubled) = try Self.runs(in: runs)
        #expect(doubled.isEmpty, "steps that ran twice: \(doubled)")
        #expect(zip(ran, ran.dropFirst()).allSatisfy { $0 < $1 }, "steps ran out of order: \(ran)")

        var settled: [Int: String] = [:]
        for line in beforeKill + phone.output {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let n = Int(parts[1]), parts[0] == "ok" || parts[0] == "err" else { continue }
            settled[n] = parts.count > 2 ? String(parts[2]) : "ok"
        }
        let missing = (0..<count).filter { settled[$0] == nil }
        #expect(missing.isEmpty, "steps with no outcome: \(missing)")
        // NB: `outcome_unknown` means "ran at most once": a kill between the started mark's sync and
        // the handler call leaves it unrun, which `doubled` above already bounds from the other side.
        for (n, outcome) in settled where outcome == "ok" {
            #expect(seen.contains(n), "step \(n) reported ok but never ran")
        }
        print(
            "two-process kill: \(converged) steps=\(count) ran=\(ran.count) ok=\(settled.values.filter { $0 == "ok" }.count) outcome_unknown=\(settled.values.filter { $0 == "outcome_unknown" }.count) doubled=\(doubled.count) missing=\(missing.count)"
        )
    }

    /// Durable posts, whose answers travel as cumulative acknowledgements and settle with one
    /// record per group: the watch and then the phone are `kill -9`ed mid-stream and restarted (the
    /// restarted phone posts every note again under the same idempotency keys). Every note settles;
    /// none runs twice; every note settled `ok` ran (`outcome_unknown` may mean it did not).
    @Test func killingEitherProcessSettlesEveryPostAndRunsNoneTwice() async throws {
        let pair = try DemoPair("wl-notes")
        defer { pair.remove() }
        let binary = pair.binary
        let runs = pair.path("note-runs")
        let watchArgs = pair.watch(["--note-runs", runs])
        let count = 400
        let phoneArgs = pair.phone([
            "--count", "0", "--notes", String(count), "--timeout", "90", "--pace-ms", "2", "--limit-file", pair.limit.path,
        ])
        func hold(at note: Int?) throws { try pair.hold(at: note) }
        func posted(_ child: Child) -> Int { child.output.filter { $0.hasPrefix("posted ") }.count }
        try hold(at: 150)
        var watch = try Child(binary, watchArgs)
        let firstPhone = try Child(binary, phoneArgs)
        // NB: the watch dies while the phone is still posting, so notes are in flight both ways.
        try await waitFor("100 notes posted") { posted(firstPhone) >= 100 }
        watch.kill9()
        try await Task.sleep(for: .milliseconds(300))
        watch = try Child(binary, watchArgs)
        try hold(at: 300)
        try await waitFor("250 notes posted") { posted(firstPhone) >= 250 }
        firstPhone.kill9()
        await firstPhone.outputEnded()
        #expect(!firstPhone.output.contains { $0.hasPrefix("notes settled") }, "the phone must die mid-stream")
        try hold(at: nil)
        let phone = try Child(binary, phoneArgs)
        try await waitFor("the restarted phone to finish") { phone.output.contains { $0.hasPrefix("done") } }
        watch.kill9()
        phone.kill9()
        await phone.outputEnded()

        #expect(phone.output.contains("notes settled=\(count) of \(count)"), "\(phone.output.suffix(5))")
        let (ran, seen, doubled) = try Self.runs(in: runs)
        #expect(doubled.isEmpty, "notes that ran twice: \(doubled)")
        var outcomes: [Int: String] = [:]
        for line in phone.output {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "note", let n = Int(parts[1]) else { continue }
            outcomes[n] = String(parts[2])
        }
        let unsettled = (0..<count).filter { outcomes[$0] == nil }
        #expect(unsettled.isEmpty, "notes with no outcome: \(unsettled)")
        for (n, outcome) in outcomes {
            #expect(outcome == "ok" || outcome == "outcome_unknown", "note \(n) settled \(outcome)")
            if outcome == "ok" { #expect(seen.contains(n), "note \(n) settled ok but never ran") }
        }
        print(
            "two-process kill, posts: notes=\(count) ran=\(ran.count) ok=\(outcomes.values.filter { $0 == "ok" }.count) outcome_unknown=\(outcomes.values.filter { $0 == "outcome_unknown" }.count) doubled=\(doubled.count)"
        )
    }

    @Test func aFileQueuedByAKilledPhoneReachesTheWatchOnceAfterTheRestart() async throws {
        let pair = try DemoPair("wl-file")
        defer { pair.remove() }
        let binary = pair.binary
        let root = pair.root
        let original = root.appendingPathComponent("notes.txt")
        try Data("file across processes".utf8).write(to: original)
        let phoneArgs = pair.phone(["--count", "0", "--linger", "120"])
        let firstPhone = try Child(binary, phoneArgs + ["--file", original.path])
        try await waitFor("the file to be queued") { firstPhone.output.contains { $0.hasPrefix("file queued") } }
        firstPhone.kill9()
        // NB: the phone's session keeps its own copy, so the original may go.
        try FileManager.default.removeItem(at: original)
        let watch = try Child(binary, pair.watch())
        let phone = try Child(binary, phoneArgs)
        try await waitFor("the restarted phone to hear the file delivered") {
            phone.output.contains { $0.hasPrefix("file finished") }
        }
        try await waitFor("the watch to report the file") { watch.output.contains { $0.hasPrefix("file received") } }
        watch.kill9()
        phone.kill9()
        #expect(watch.output.filter { $0.hasPrefix("file received") } == ["file received notes.txt 21 from=phone"])
        let queued = try #require(firstPhone.output.first { $0.hasPrefix("file queued") })
        let id = queued.split(separator: " ")[2]
        #expect(phone.output.contains("file finished \(id) delivered"))
        let inbox = root.appendingPathComponent("watch/inbox")
        let folders = try FileManager.default.contentsOfDirectory(atPath: inbox.path).filter { !$0.hasPrefix(".") }
        #expect(folders.count == 1 && folders.first?.hasPrefix(String(id)) == true)
        let copy = inbox.appendingPathComponent(folders.first ?? "").appendingPathComponent("notes.txt")
        #expect(try Data(contentsOf: copy) == Data("file across processes".utf8))
    }
}
