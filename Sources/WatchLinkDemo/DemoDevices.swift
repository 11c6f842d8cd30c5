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
        let inbox = try FileInbox(directory: URL(fileURLWithPath: directory + "/inbox"))
        let connection = WatchConnection(
            origin: origin, session: session, store: store, clock: ContinuousClock(), fileInbox: inbox)
        return (connection, session)
    }

    /// The two shared states both devices keep: `mood` (both write it) and `last-step` (the watch writes it).
    struct DemoStates: Sendable {
        let mood: SharedState<String>
        let lastStep: SharedState<Int>

        init(_ connection: WatchConnection) async throws(WatchLinkError) {
            mood = try await connection.sharedState("mood", initial: "neutral")
            lastStep = try await connection.sharedState("last-step", initial: -1)
        }

        /// `state mood=V@ID last-step=V@ID`: the values and the update ids of their versions.
        var line: String {
            func id(_ version: StateVersion?) -> String { version.map { String($0.updateID.uuidString.prefix(8)) } ?? "-" }
            return "state mood=\(mood.value)@\(id(mood.version)) last-step=\(lastStep.value)@\(id(lastStep.version))"
        }

        /// Prints ``line`` whenever it changes, forever.
        func report() async {
            var last = ""
            while !Task.isCancelled {
                if line != last {
                    last = line
                    emit(last)
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Serves ``Step`` requests forever; each run is appended (and synced) to the runs file.
    static func watch(_ options: DemoOptions) async throws(WatchLinkError) {
        let (connection, _) = try makeConnection(.watch, options)
        let runsPath = options.values["runs"]
        let total = Mutex(0)
        let lastStep = Mutex<SharedState<Int>?>(nil)
        try connection.register(Step.self) { step in
            if let runsPath { appendLine("\(step.n)", to: runsPath) }
            let now = total.withLock { value -> Int in
                value += step.n
                return value
            }
            if let state = lastStep.withLock({ $0 }), step.n > state.value { try await state.update(step.n) }
            return StepDone(n: step.n, total: now)
        }
        let noteRuns = options.values["note-runs"]
        let runNote: @Sendable (Note) -> WatchAck = { note in
            if let noteRuns { appendLine("\(note.n)", to: noteRuns) }
            return WatchAck()
        }
        try connection.register(Note.self, inline: runNote)
        let mood = Mutex<SharedState<String>?>(nil)
        try connection.register(MoodCheck.self) { _ in
            MoodSeen(mood: mood.withLock { $0 }?.value ?? "")
        }
        let files = await connection.receivedFiles()
        Task {
            for await file in files {
                let metadata = file.transfer.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                emit("file received \(file.transfer.fileName) \(file.transfer.size) \(metadata.joined(separator: ","))")
            }
        }
        try await connection.start()
        let states = try await DemoStates(connection)
        lastStep.withLock { $0 = states.lastStep }
        mood.withLock { $0 = states.mood }
        try await states.mood.update("watch-up")
        emit("watch ready on \(try options.string("socket")); waiting for the phone")
        var last = ""
        Task { await states.report() }
        while true {
            try? await Task.sleep(for: .milliseconds(200))
            if states.mood.value != last {
                last = states.mood.value
                emit("watch sees mood \(last)")
            }
        }
    }

    /// Sends `count` steps (8 in flight) and prints each outcome; steps reuse their idempotency key,
    /// so a restarted phone can resend all of them without any step running twice.
    static func phone(_ options: DemoOptions) async throws(WatchLinkError) {
        let (connection, _) = try makeConnection(.phone, options)
        let count = try options.int("count", default: 10)
        let notes = try options.int("notes", default: 0)
        let strategy = try options.strategy()
        let timeout = Duration.seconds(try options.int("timeout", default: 60))
        let events = await connection.events()
        Task {
            for await event in events {
                if event.kind == .fileTransferFinished, let id = event.requestID {
                    emit("file finished \(id.uuidString.prefix(8)) \(event.code?.rawValue ?? "delivered")")
                }
            }
        }
        try await connection.start()
        if !connection.status.isReachable {
            // NB: nothing is lost meanwhile: requests wait in the outbox (and the log) until it connects.
            emit("waiting for the watch on \(try options.string("socket")) (start it with: watchlink-demo watch …)")
        }
        if let path = options.values["file"] {
            let transfer = try await connection.transferFile(URL(fileURLWithPath: path), metadata: ["from": "phone"])
            emit("file queued \(transfer.id.uuidString.prefix(8)) \(transfer.fileName) \(transfer.size)")
        }
        let states = try await DemoStates(connection)
        try await states.mood.update("happy")
        // NB: a pause before each further step keeps the stream running long enough for a
        // test to kill either process in the middle of it, however loaded the machine is.
        let pace = Duration.milliseconds(try options.int("pace-ms", default: 0))
        let limitFile = options.values["limit-file"]
        let results = await sendSteps(
            count, over: connection, strategy: strategy, timeout: timeout, pace: pace, limitFile: limitFile)
        if notes > 0 {
            let settled = try await postNotes(notes, over: connection, timeout: timeout, pace: pace, limitFile: limitFile)
            emit("notes settled=\(settled) of \(notes)")
        }
        try await states.mood.update("finished")
        let ok = results.filter { $0.hasPrefix("ok") }.count
        emit("done ok=\(ok) err=\(results.count - ok) health=\(connection.status.health.rawValue)")
        // NB: shared state travels on its own channel; before exiting, wait until the watch says it
        // sees the last value, or the process could end before it left.
        let seen = await waitForWatch(toSee: "finished", over: connection, timeout: timeout)
        emit(seen ? "watch confirmed mood finished" : "the watch did not confirm mood finished within the timeout")
        let linger = try options.int("linger", default: 0)
        if linger > 0 {
            // NB: keep the connection up so shared state can converge, and report it as it does.
            let reporter = Task { await states.report() }
            try? await Task.sleep(for: .seconds(linger))
            reporter.cancel()
        }
    }

    /// Asks the watch which mood it sees until it is `mood` or `timeout` passes; whether it saw it.
    static func waitForWatch(toSee mood: String, over connection: WatchConnection, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            if let seen = try? await connection.send(MoodCheck(), strategy: .messageOnly, timeout: min(left, .seconds(5))),
                seen.mood == mood
            {
                return true
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// What the step sender waits for: a request accepted into the outbox, or a step's outcome line.
    enum StepProgress: Sendable {
        case accepted
        case finished(Int, String)
    }

    /// Sends steps `0..<count`, 8 in flight, printing each outcome as it arrives.
    ///
    /// NB: concurrent callers reach the connection in no particular order, so step `n + 1` is only
    /// launched once step `n` is in the outbox (or has already failed); the ordered channel then
    /// runs the steps in step order.
    static func sendSteps(
        _ count: Int, over connection: WatchConnection, strategy: DeliveryStrategy, timeout: Duration,
        pace: Duration = .zero, limitFile: String? = nil
    ) async -> [String] {
        let (progress, sink) = AsyncStream.makeStream(of: StepProgress.self)
        let events = await connection.events()
        let forwarder = Task {
            for await event in events {
                if event.kind == .requestAccepted { sink.yield(.accepted) }
            }
        }
        defer { forwarder.cancel() }
        return await withTaskGroup(of: Void.self, returning: [String].self) { group in
            var updates = progress.makeAsyncIterator()
            var lines: [String] = []
            var accepted = 0
            var launched = 0
            func record(_ line: String) {
                emit(line)
                lines.append(line)
            }
            while lines.count < count {
                if launched < count && launched - lines.count < 8 {
                    if pace > .zero && launched > 0 { try? await Task.sleep(for: pace) }
                    // NB: with --limit-file, step n waits while the file holds a number ≤ n: a
                    // test holds the stream there, so a process it kills is always mid-stream.
                    while let limitFile, let limit = Self.limit(in: limitFile), limit <= launched {
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    let n = launched
                    launched += 1
                    group.addTask {
                        do throws(WatchLinkError) {
                            let done = try await connection.send(
                                Step(n: n), strategy: strategy, timeout: timeout, idempotencyKey: "step-\(n)")
                            sink.yield(.finished(n, "ok \(done.n)"))
                        } catch {
                            sink.yield(.finished(n, "err \(n) \(error.code)"))
                        }
                    }
                    var settled = false
                    while accepted < launched && !settled, let update = await updates.next() {
                        switch update {
                        case .accepted: accepted += 1
                        case .finished(let k, let line):
                            record(line)
                            settled = k == n
                        }
                    }
                    continue
                }
                guard let update = await updates.next() else { break }
                switch update {
                case .accepted: accepted += 1
                case .finished(_, let line): record(line)
                }
            }
            return lines
        }
    }

    /// What the note poster waits for: a request's settlement, or a tick to check the deadline.
    enum NoteProgress: Sendable {
        case settled(UUID, WatchLinkError.Code?)
        case tick
    }

    /// Posts notes `0..<count` one at a time under the idempotency keys `note-n` (so a restarted
    /// phone can post all of them again without any note running twice), printing `posted n` as each
    /// is accepted, then `note n ok` (or `note n CODE`) as each settles; waits for every settlement
    /// until `timeout` passes, and returns how many settled.
    static func postNotes(
        _ count: Int, over connection: WatchConnection, timeout: Duration, pace: Duration = .zero, limitFile: String? = nil
    ) async throws(WatchLinkError) -> Int {
        let events = await connection.events()
        let (progress, sink) = AsyncStream.makeStream(of: NoteProgress.self)
        let forwarder = Task {
            for await event in events where event.kind == .requestSettled {
                if let id = event.requestID { sink.yield(.settled(id, event.code)) }
            }
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                sink.yield(.tick)
            }
        }
        defer {
            forwarder.cancel()
            ticker.cancel()
        }
        var notes: [UUID: Int] = [:]
        for n in 0..<count {
            if pace > .zero && n > 0 { try? await Task.sleep(for: pace) }
            // NB: as with steps, a number in --limit-file holds the notes from there on.
            while let limitFile, let limit = Self.limit(in: limitFile), limit <= n {
                try? await Task.sleep(for: .milliseconds(10))
            }
            notes[try await connection.post(Note(n: n), idempotencyKey: "note-\(n)")] = n
            emit("posted \(n)")
        }
        // NB: settlements wait in the stream meanwhile, so each is read once every id is known; those
        // of requests a killed phone left in the outbox (ids this process never saw) are skipped.
        var settled = Set<Int>()
        let deadline = ContinuousClock.now + timeout
        for await update in progress {
            if case .settled(let id, let code) = update, let n = notes[id], settled.insert(n).inserted {
                emit("note \(n) \(code?.rawValue ?? "ok")")
            }
            if settled.count == count || ContinuousClock.now > deadline { break }
        }
        return settled.count
    }

    /// The number in `path`, if the file exists and holds one.
    static func limit(in path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
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
