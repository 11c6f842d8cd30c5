import Foundation
import Synchronization
import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// The two demo processes: the watch serves steps, the phone sends them.
enum DemoDevices {
    static func makeConnection(_ origin: DeviceOrigin, _ options: DemoOptions) throws(WatchLinkError) -> (
        WatchConnection, SocketSession
    ) {
        let directory = try options.string("data")
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let session = try SocketSession(
            socketPath: try options.string("socket"), role: origin == .watch ? .listen : .connect, directory: directory)
        let store = try FileStore(path: directory + "/watchlink.log")
        return (WatchConnection(origin: origin, session: session, store: store, clock: ContinuousClock()), session)
    }

    /// Serves ``Step`` requests forever; each run is appended (and synced) to the runs file.
    static func watch(_ options: DemoOptions) async throws(WatchLinkError) {
        let (connection, _) = try makeConnection(.watch, options)
        let runsPath = options.values["runs"]
        let total = Mutex(0)
        try connection.register(Step.self) { step in
            if let runsPath { appendLine("\(step.n)", to: runsPath) }
            let now = total.withLock { value -> Int in
                value += step.n
                return value
            }
            return StepDone(n: step.n, total: now)
        }
        try await connection.start()
        let mood = try await connection.sharedState("mood", initial: "neutral")
        emit("watch ready")
        var last = ""
        while true {
            try? await Task.sleep(for: .milliseconds(200))
            if mood.value != last {
                last = mood.value
                emit("watch sees mood \(last)")
            }
        }
    }

    /// Sends `count` steps (`--in-flight`, 8 by default) and prints each outcome; steps reuse their idempotency key,
    /// so a restarted phone can resend all of them without any step running twice.
    static func phone(_ options: DemoOptions) async throws(WatchLinkError) {
        let (connection, _) = try makeConnection(.phone, options)
        let count = try options.int("count", default: 10)
        let strategy = try options.strategy()
        let timeout = Duration.seconds(try options.int("timeout", default: 60))
        // NB: a pause before each further step keeps the stream running long enough for a
        // test to kill either process in the middle of it, however loaded the machine is.
        let pace = Duration.milliseconds(try options.int("pace-ms", default: 0))
        // NB: concurrent sends reach the connection in no fixed order, so step numbers only
        // match the channel's order when one step is in flight at a time.
        let inFlight = max(1, try options.int("in-flight", default: 8))
        try await connection.start()
        let mood = try await connection.sharedState("mood", initial: "neutral")
        try await mood.update("happy")
        let results = await withTaskGroup(of: String.self, returning: [String].self) { group in
            var next = 0
            var lines: [String] = []
            func launch() {
                let n = next
                next += 1
                group.addTask {
                    do throws(WatchLinkError) {
                        let done = try await connection.send(
                            Step(n: n), strategy: strategy, timeout: timeout, idempotencyKey: "step-\(n)")
                        return "ok \(done.n)"
                    } catch {
                        return "err \(n) \(error.code)"
                    }
                }
            }
            while next < min(count, inFlight) { launch() }
            for await line in group {
                emit(line)
                lines.append(line)
                if next < count {
                    if pace > .zero { try? await Task.sleep(for: pace) }
                    launch()
                }
            }
            return lines
        }
        let ok = results.filter { $0.hasPrefix("ok") }.count
        emit("done ok=\(ok) err=\(results.count - ok) health=\(connection.status.health.rawValue)")
    }

    /// Writes one line to standard output immediately (the kill test reads it live).
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func appendLine(_ line: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
    }
}
