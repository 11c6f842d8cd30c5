import Foundation
import PWAKitRetry
import WatchLink

/// A seeded chaos workload over a ``PairedSimulation`` with an invariant checker.
///
/// Both devices send typed requests with every strategy and update three shared states
/// while the link drops, duplicates, reorders and delays data, flaps, and either device
/// crashes — also between any two of its own effects — and callers cancel some requests at
/// random moments; both devices also transfer files (some cancelled), received into a
/// ``FileInbox`` each. After the workload the faults stop, the system quiesces, and the checker
/// asserts: no accepted request without an outcome, no handler run twice (a cancelled request
/// too), `cancelled` only for requests a caller cancelled, ordered handlers in send order,
/// shared state converged; every file not cancelled in its receiver's inbox exactly once with its
/// bytes, no file twice, no transfer finished twice or with an outcome it cannot have.
package enum ChaosRun {
    /// Shared-state keys and how each resolves conflicts.
    static let stateKeys: [(String, StateResolution)] = [
        ("latest", .latestWins),
        ("watch", .watchOSWins),
        (
            "merged",
            .custom { phone, watch in
                let a = (try? JSONDecoder().decode(Int.self, from: phone)) ?? 0
                let b = (try? JSONDecoder().decode(Int.self, from: watch)) ?? 0
                return try? JSONEncoder().encode(max(a, b))
            }
        ),
    ]

    struct Payload: Codable { var n: Int; var pad: String }

    struct Submitted {
        var side: DeviceOrigin
        var n: Int
        var deadline: Int64
        var ordered: Bool
        var durable: Bool
        /// Answered with `WatchAck`, as a fire-and-forget request is: such answers travel as
        /// acknowledgements, several to a frame.
        var fireAndForget: Bool
    }

    /// Runs `requests` requests under `faults` from `seed` and checks the invariants.
    package static func run(seed: UInt64, requests: Int, faults: FaultPlan = FaultPlan()) -> ChaosReport {
        let world = PairedSimulation(seed: seed, faults: faults)
        var workload = SeededRandom(seed: seed ^ 0x5EED_5EED_5EED_5EED)
        var report = ChaosReport(seed: seed)
        var submitted: [UUID: Submitted] = [:]
        var acceptedIDs: [UUID] = []
        var acceptedAt: [UUID: Int64] = [:]
        var completions: [UUID: [(Int64, Result<Data, WatchLinkError>)]] = [:]
        var durablySettled: [UUID: Result<Data, WatchLinkError>] = [:]
        var runs: [String: Int] = [:]
        var orderedRuns: [DeviceOrigin: [Int]] = [.phone: [], .watch: []]
        var restarts: [DeviceOrigin: [Int64]] = [.phone: [], .watch: []]
        var cancelled: Set<UUID> = []
        // Files: sources and both inboxes live in a scratch directory for the length of the run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "watchlink-chaos-\(seed)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var inboxes: [DeviceOrigin: FileInbox] = [:]
        for side in [DeviceOrigin.phone, .watch] {
            inboxes[side] = try? FileInbox(directory: scratch.appendingPathComponent("inbox-\(side.rawValue)"))
        }
        var files: [UUID: (to: DeviceOrigin, contents: Data)] = [:]
        var fileCancelled: Set<UUID> = []
        var fileFinishes: [UUID: [WatchLinkError.Code?]] = [:]
        world.observer.fileReceived = { (side, file) throws(WatchLinkError) in
            guard let inbox = inboxes[side] else { throw WatchLinkError(.storageFailed, "no inbox") }
            _ = try inbox.accept(file)
        }
        world.observer.fileTransferFinished = { _, transfer, error in fileFinishes[transfer.id, default: []].append(error?.code) }

        world.observer.handlerRan = { side, call in
            runs[call.idempotencyKey, default: 0] += 1
            if let info = submitted[call.requestID], info.ordered { orderedRuns[side]!.append(info.n) }
        }
        world.observer.acknowledged = { _, entries in
            report.acknowledgementFrames += 1
            report.acknowledgedAnswers += entries
        }
        world.observer.accepted = { _, id in
            acceptedIDs.append(id)
            acceptedAt[id] = world.now
        }
        world.observer.completed = { _, id, outcome in completions[id, default: []].append((world.now, outcome)) }
        world.observer.crashed = { side, disk in
            restarts[side]!.append(world.now)
            for record in disk.synced {
                switch record {
                case .outboxSettled(let id, let response) where completions[id] == nil: durablySettled[id] = response.outcome
                case .outboxAcknowledged(let ids):
                    for id in ids where completions[id] == nil { durablySettled[id] = .success(WireAcknowledgements.value) }
                default: break
                }
            }
        }
        var configuration = LinkEngine.Configuration()
        configuration.queuedReplyTimeout = .seconds(4)
        world.start(configuration: configuration, resolutions: Dictionary(uniqueKeysWithValues: stateKeys)) { side, call in
            guard let payload = try? JSONDecoder().decode(Payload.self, from: call.payload) else {
                return .failure(WatchLinkError(.decodingFailed, "bad chaos payload"))
            }
            if submitted[call.requestID]?.fireAndForget == true { return .success(WireAcknowledgements.value) }
            return .success(Data("{\"n\":\(payload.n),\"by\":\"\(side.rawValue)\"}".utf8))
        }

        let strategies: [(DeliveryStrategy, Int)] = [
            (.messageWithUserInfoFallback, 40), (.userInfoOnly, 25), (.messageOnly, 10),
            (.messageWithContextFallback, 15), (.contextOnly, 10),
        ]
        var time = world.now
        for n in 0..<requests {
            time += 50 + Int64(workload.next() % 300)
            let side: DeviceOrigin = workload.next() % 5 == 0 ? .watch : .phone
            var pick = Int(workload.next() % 100)
            var strategy = DeliveryStrategy.messageWithUserInfoFallback
            for (candidate, weight) in strategies {
                if pick < weight { strategy = candidate; break }
                pick -= weight
            }
            let fireAndForget = workload.next() % 10 == 0
            let durable = workload.next() % 4 != 0
            let id = workload.uuid()
            let pad = String(repeating: "x", count: Int(workload.next() % 200))
            let payload = (try? WireCodec.encodeValue(Payload(n: n, pad: pad))) ?? Data()
            let at = time
            world.schedule(at: at) {
                report.requests += 1
                let endpoint = world.endpoint(side)
                guard endpoint.isUp else {
                    report.submittedWhileDown += 1
                    return
                }
                let deadline = at + 60_000
                submitted[id] = Submitted(
                    side: side, n: n, deadline: deadline, ordered: strategy.isOrdered, durable: durable,
                    fireAndForget: fireAndForget)
                let request = WireRequest(
                    typeKey: WatchTypeKey("chaos.echo"), payload: payload, requestID: id, isFireAndForget: fireAndForget,
                    isDurable: durable, createdAt: WatchTimestamp(milliseconds: at),
                    deadline: WatchTimestamp(milliseconds: deadline))
                endpoint.submit(request, strategy: strategy, retry: .standard)
            }
            if workload.next() % 25 == 0 {
                // NB: anywhere from before the first send to after the answer, like a caller's task.
                let delay = 1 + Int64(workload.next() % 4_000)
                world.schedule(at: at + delay) {
                    let endpoint = world.endpoint(side)
                    guard endpoint.isUp, submitted[id] != nil else { return }
                    report.cancels += 1
                    cancelled.insert(id)
                    endpoint.cancel(id)
                }
            }
            if n % 50 == 25 {
                let from: DeviceOrigin = workload.next() % 2 == 0 ? .phone : .watch
                let contents = Data((0..<Int(workload.next() % 4_096)).map { _ in UInt8(truncatingIfNeeded: workload.next()) })
                let cancelAfter: Int64? = workload.next() % 5 == 0 ? 1 + Int64(workload.next() % 3_000) : nil
                let source = scratch.appendingPathComponent("file-\(n).bin")
                world.schedule(at: at + 3) {
                    let endpoint = world.endpoint(from)
                    guard (try? contents.write(to: source)) != nil,
                        let transfer = try? endpoint.transferFile(source, metadata: ["n": String(n)])
                    else { return }
                    files[transfer.id] = (from.counterpart, contents)
                    guard let cancelAfter else { return }
                    world.schedule(at: world.now + cancelAfter) {
                        guard endpoint.isUp else { return }
                        fileCancelled.insert(transfer.id)
                        endpoint.cancelFileTransfer(transfer.id)
                    }
                }
            }
            if n % 20 == 0 {
                let key = stateKeys[Int(workload.next() % 3)].0
                let updater: DeviceOrigin = workload.next() % 2 == 0 ? .phone : .watch
                let value = Data(String(workload.next() % 1_000_000).utf8)
                world.schedule(at: at + 7) {
                    report.stateUpdates += 1
                    world.endpoint(updater).updateState(key, value: value)
                }
            }
        }
        world.run(until: time)
        world.quiesce()
        world.run(until: time + 180_000)

        report.accepted = acceptedIDs.count
        report.faults = world.faultCounts
        report.longestUserInfoQueue = world.userInfoLongest
        report.traceDigest = world.traceDigest
        func violation(_ text: String) {
            if report.violations.count < 10 { report.violations.append("seed \(seed): \(text)") }
        }
        // NB: every handler run counts, including requests synced to the outbox whose sender crashed
        // before reporting them accepted (recovery replays those too).
        for (key, ran) in runs.sorted(by: { $0.key < $1.key }) where ran > 1 {
            report.duplicated += 1
            let n = UUID(uuidString: key).flatMap { submitted[$0]?.n }.map(String.init) ?? key
            violation("request \(n) ran \(ran) times")
        }
        for id in acceptedIDs {
            guard let info = submitted[id] else { continue }
            let key = id.uuidString
            let ran = runs[key, default: 0]
            let outcome: Result<Data, WatchLinkError>
            if let list = completions[id], let first = list.first {
                if list.count > 1 { violation("request \(info.n) settled \(list.count) times") }
                outcome = first.1
                if first.0 > info.deadline {
                    let restartedSince = restarts[info.side]!.contains { $0 <= first.0 && $0 >= info.deadline - 3000 }
                    if !restartedSince {
                        report.late += 1
                        violation("request \(info.n) settled \(first.0 - info.deadline) ms after its deadline")
                    }
                }
            } else if let settled = durablySettled[id] {
                outcome = settled
            } else if !info.durable, restarts[info.side]!.contains(where: { $0 >= acceptedAt[id, default: 0] }) {
                // NB: a non-durable request dies with its sender's process, and so does its caller.
                report.abandoned += 1
                continue
            } else {
                report.lost += 1
                violation("request \(info.n) accepted but never settled")
                continue
            }
            switch outcome {
            case .success(let data):
                report.succeeded += 1
                let expected = "{\"n\":\(info.n),"
                if info.fireAndForget
                    ? data != WireAcknowledgements.value : !String(decoding: data, as: UTF8.self).hasPrefix(expected)
                {
                    violation("request \(info.n) got a wrong answer")
                }
                if ran != 1 { violation("request \(info.n) succeeded but ran \(ran) times") }
            case .failure(let error):
                report.failures[error.code.rawValue, default: 0] += 1
                if error.code == .cancelled {
                    if !cancelled.contains(id) { violation("request \(info.n) settled cancelled but nobody cancelled it") }
                    if ran == 0 { report.cancelledNeverRan += 1 } else { report.cancelledRanOnce += 1 }
                }
                if error.code == .outcomeUnknown {
                    // NB: a crash between the synced start mark and the handler's call leaves the same
                    // disk as one after it returned, so outcome_unknown means "ran at most once".
                    if ran == 0 { report.outcomeUnknownNeverRan += 1 } else if ran == 1 { report.outcomeUnknownRanOnce += 1 }
                }
            }
        }
        for side in [DeviceOrigin.phone, .watch] {
            let order = orderedRuns[side]!
            for i in order.indices.dropFirst() where order[i] <= order[i - 1] {
                report.fifoViolations += 1
                violation("ordered handlers on \(side) ran \(order[i - 1]) before \(order[i])")
            }
            if let engine = world.endpoint(side).engine, engine.pendingCount > 0 {
                violation("\(side) still has \(engine.pendingCount) pending requests after quiescence")
            }
        }
        report.files = files.count
        report.fileCancels = fileCancelled.count
        var inboxed: [UUID: [ReceivedFile]] = [:]
        for side in [DeviceOrigin.phone, .watch] {
            for file in (try? inboxes[side]?.files()) ?? [] { inboxed[file.transfer.id, default: []].append(file) }
            if !world.endpoint(side).outstandingFileTransfers.isEmpty {
                violation(
                    "\(side) still has \(world.endpoint(side).outstandingFileTransfers.count) files queued after quiescence")
            }
        }
        for (id, sent) in files.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let copies = inboxed[id] ?? []
            if copies.count > 1 { violation("file \(id) is in the inboxes \(copies.count) times") }
            if let copy = copies.first {
                report.filesDelivered += 1
                if FileManager.default.contents(atPath: copy.url.path) != sent.contents {
                    violation("file \(id) arrived with other bytes")
                }
                if inboxes[sent.to].map({ copy.url.path.hasPrefix($0.directory.path) }) != true {
                    violation("file \(id) reached the wrong device")
                }
            } else if !fileCancelled.contains(id) {
                violation("file \(id) was never delivered")
            }
            let finishes = fileFinishes[id] ?? []
            if finishes.count > 1 { violation("file \(id) finished \(finishes.count) times") }
            if let outcome = finishes.first {
                if outcome == nil && copies.isEmpty { violation("file \(id) finished delivered but is in no inbox") }
                if outcome == .cancelled && !fileCancelled.contains(id) { violation("file \(id) finished cancelled uncancelled") }
                if let outcome, outcome != .cancelled { violation("file \(id) finished with \(outcome.rawValue)") }
            }
        }
        let phone = world.endpoint(.phone).engine?.stateEntries ?? [:]
        let watch = world.endpoint(.watch).engine?.stateEntries ?? [:]
        for (key, _) in stateKeys where phone[key] != watch[key] {
            report.divergedStates += 1
            violation("shared state '\(key)' diverged")
        }
        return report
    }
}
