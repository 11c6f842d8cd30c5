import Foundation
import Testing

@testable import WatchLink
@testable import WatchLinkSimulation

/// File transfer through the paired simulation's system queues, with the fault injector on.
@Suite struct FileTransferSimulationTests {
    /// Everything one run observed.
    final class Log {
        var inboxes: [DeviceOrigin: FileInbox] = [:]
        var deliveries = 0
        var finished: [UUID: WatchLinkError?] = [:]
        var sent: [UUID: (to: DeviceOrigin, contents: Data)] = [:]
    }

    func makeSimulation(seed: UInt64, faults: FaultPlan, folder: URL) throws -> (PairedSimulation, Log) {
        let simulation = PairedSimulation(seed: seed, faults: faults)
        let log = Log()
        for origin in [DeviceOrigin.phone, .watch] {
            log.inboxes[origin] = try FileInbox(directory: folder.appendingPathComponent("inbox-\(origin)"))
        }
        simulation.observer.fileReceived = { (origin, file) throws(WatchLinkError) in
            log.deliveries += 1
            _ = try log.inboxes[origin]!.accept(file)
        }
        simulation.observer.fileTransferFinished = { _, transfer, error in log.finished[transfer.id] = error }
        simulation.start { _, _ in .success(Data()) }
        return (simulation, log)
    }

    /// Transfers `url` from `origin` as soon as the device is up and activated.
    func transfer(_ url: URL, from origin: DeviceOrigin, in simulation: PairedSimulation, log: Log) {
        do {
            let transfer = try simulation.endpoint(origin).transferFile(url, metadata: ["from": origin.rawValue])
            log.sent[transfer.id] = (origin.counterpart, try Data(contentsOf: url))
        } catch {
            simulation.schedule(at: simulation.now + 100) { self.transfer(url, from: origin, in: simulation, log: log) }
        }
    }

    @Test func filesSurviveDropsDuplicatesCrashesAndFlapsAndReachTheInboxOnce() throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var faults = FaultPlan()
        faults.crashInterval = 5_000
        faults.crashPointRate = 0.02
        let (simulation, log) = try makeSimulation(seed: 7, faults: faults, folder: folder)
        let start = simulation.now
        for n in 0..<60 {
            let origin: DeviceOrigin = n.isMultiple(of: 2) ? .phone : .watch
            let url = try FileTransferTests.write(
                "file \(n) " + String(repeating: "x", count: n * 97), named: "f\(n).txt", in: folder)
            simulation.schedule(at: start + Int64(n) * 400) { self.transfer(url, from: origin, in: simulation, log: log) }
        }
        simulation.run(until: start + 60_000)
        simulation.quiesce()
        simulation.run(until: simulation.now + 60_000)

        #expect(log.sent.count == 60)
        for origin in [DeviceOrigin.phone, .watch] {
            #expect(simulation.endpoint(origin).outstandingFileTransfers.isEmpty)
        }
        var received = 0
        for (id, expected) in log.sent {
            let files = try log.inboxes[expected.to]!.files().filter { $0.transfer.id == id }
            #expect(files.count == 1, "transfer \(id)")
            guard let file = files.first else { continue }
            received += 1
            #expect(try Data(contentsOf: file.url) == expected.contents)
            #expect(file.transfer.metadata["from"] == expected.to.counterpart.rawValue)
        }
        #expect(received == 60)
        #expect(log.finished.values.allSatisfy { $0 == nil }, "only deliveries finish here")
        #expect(log.deliveries > 60, "duplicates and redeliveries reached the inbox, which kept one copy")
        #expect(simulation.faultCounts[.drop, default: 0] > 0 && simulation.faultCounts[.duplicate, default: 0] > 0)
        #expect(simulation.faultCounts[.crash, default: 0] > 0)
    }

    @Test func aQueuedFileOutlivesItsSendersCrash() throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (simulation, log) = try makeSimulation(seed: 3, faults: .none, folder: folder)
        simulation.run(until: simulation.now + 1_000)
        let url = try FileTransferTests.write("survivor", named: "s.txt", in: folder)
        transfer(url, from: .phone, in: simulation, log: log)
        simulation.crash(.phone)
        try FileManager.default.removeItem(at: url)
        simulation.run(until: simulation.now + 10_000)
        let files = try log.inboxes[.watch]!.files()
        #expect(files.count == 1)
        #expect(try files.first.map { try Data(contentsOf: $0.url) } == Data("survivor".utf8))
    }

    @Test func cancellingAQueuedFileFinishesItCancelledAndNothingArrives() throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (simulation, log) = try makeSimulation(seed: 5, faults: .none, folder: folder)
        simulation.run(until: simulation.now + 1_000)
        let url = try FileTransferTests.write("never", named: "n.txt", in: folder)
        let transfer = try simulation.endpoint(.watch).transferFile(url)
        let session = try #require(simulation.endpoint(.watch).session)
        #expect(session.progress(ofFileTransfer: transfer.id) == FileTransferProgress(completedBytes: 0, totalBytes: 5))
        simulation.endpoint(.watch).cancelFileTransfer(transfer.id)
        #expect(session.progress(ofFileTransfer: transfer.id) == nil)
        simulation.run(until: simulation.now + 10_000)
        #expect(log.finished[transfer.id]??.code == .cancelled)
        #expect(try log.inboxes[.phone]!.files().isEmpty)
        #expect(log.deliveries == 0)
    }

    @Test func aRefusingReceiverGetsTheFileAgainLater() throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (simulation, log) = try makeSimulation(seed: 9, faults: .none, folder: folder)
        var refusals = 2
        simulation.observer.fileReceived = { (origin, file) throws(WatchLinkError) in
            log.deliveries += 1
            if refusals > 0 {
                refusals -= 1
                throw WatchLinkError(.storageFailed, "disk full")
            }
            _ = try log.inboxes[origin]!.accept(file)
        }
        simulation.run(until: simulation.now + 1_000)
        let url = try FileTransferTests.write("again", named: "a.txt", in: folder)
        let transfer = try simulation.endpoint(.phone).transferFile(url)
        simulation.run(until: simulation.now + 10_000)
        #expect(log.deliveries == 3)
        #expect(try log.inboxes[.watch]!.files().map(\.transfer.id) == [transfer.id])
        #expect(log.finished[transfer.id] != nil && log.finished[transfer.id]! == nil)
    }
}
