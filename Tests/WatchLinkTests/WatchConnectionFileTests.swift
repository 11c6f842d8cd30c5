import Foundation
import PWAKitRetry
import PWAKitTesting
import Testing

@testable import WatchLink

/// File transfer through two connections over an in-memory session pair, on a manual clock.
// NB: generous: the CLI suites block cooperative threads while their processes run, which
// can stall these async tests for a while on a 2-core machine; a real hang still fails.
@Suite(.timeLimit(.minutes(5))) struct WatchConnectionFileTests {
    func makePair(folder: URL, watchInbox: Bool = true) throws -> (phone: WatchConnection, watch: WatchConnection) {
        let (phoneSession, watchSession) = InMemorySession.makePair()
        let clock = ManualClock()
        let t0 = WatchTimestamp(milliseconds: 1_000_000)
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: InMemoryStore(), clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 1), fileInbox: try FileInbox(directory: folder.appendingPathComponent("phone-inbox")))
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: InMemoryStore(), clock: clock, wallClockAtStart: t0,
            random: SeededRandom(seed: 2),
            fileInbox: watchInbox ? try FileInbox(directory: folder.appendingPathComponent("watch-inbox")) : nil)
        return (phone, watch)
    }

    @Test func aFileQueuedBeforeTheWatchStartsLandsInItsInboxOnce() async throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (phone, watch) = try makePair(folder: folder)
        let phoneEvents = await phone.events()
        let files = await watch.receivedFiles()
        try await phone.start()
        let url = try FileTransferTests.write("workout log", named: "workout.log", in: folder)
        let transfer = try await phone.transferFile(url, metadata: ["kind": "log"])
        #expect(await phone.outstandingFileTransfers == [transfer])
        #expect(await phone.progress(ofFileTransfer: transfer.id)?.fractionCompleted == 0)
        try await watch.start()

        var iterator = files.makeAsyncIterator()
        let received = try #require(await iterator.next())
        #expect(received.transfer == transfer)
        #expect(received.url.path.hasPrefix(folder.appendingPathComponent("watch-inbox").path))
        #expect(try Data(contentsOf: received.url) == Data("workout log".utf8))
        #expect(try watch.fileInbox?.files() == [received])
        for await event in phoneEvents {
            if case .fileTransferFinished(transfer.id, nil) = event { break }
        }
        #expect(await phone.outstandingFileTransfers.isEmpty)
        #expect(await phone.progress(ofFileTransfer: transfer.id) == nil)
    }

    @Test func withoutAnInboxTheFileIsRefusedAndStaysQueued() async throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (phone, watch) = try makePair(folder: folder, watchInbox: false)
        let watchEvents = await watch.events()
        try await watch.start()
        try await phone.start()
        let url = try FileTransferTests.write("x", named: "x.txt", in: folder)
        let transfer = try await phone.transferFile(url)
        for await event in watchEvents {
            if event.kind == .fileRejected, let error = event.error {
                #expect(error.details["field"] == "fileInbox")
                break
            }
        }
        #expect(await phone.outstandingFileTransfers == [transfer])
        await phone.cancelFileTransfer(transfer.id)
        #expect(await phone.outstandingFileTransfers.isEmpty)
    }

    @Test func badArgumentsAndAStoppedConnectionThrowNamingTheField() async throws {
        let folder = try FileTransferTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (phone, _) = try makePair(folder: folder)
        let url = try FileTransferTests.write("x", named: "x.txt", in: folder)
        await #expect(throws: WatchLinkError.self) { try await phone.transferFile(url) }
        try await phone.start()
        for (target, metadata, field) in [
            (url, ["": "empty key"], "metadata"), (folder.appendingPathComponent("missing.txt"), [:], "file"),
            (folder, [:], "file"),
        ] {
            do {
                _ = try await phone.transferFile(target, metadata: metadata)
                Issue.record("expected a refusal naming \(field)")
            } catch {
                #expect(error.details["field"] == field)
            }
        }
        await phone.stop()
        do {
            _ = try await phone.transferFile(url)
            Issue.record("expected cancelled")
        } catch {
            #expect(error.code == .cancelled)
        }
    }
}
