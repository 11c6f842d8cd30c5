import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

@Suite struct FileStoreTests {
    func temporaryPath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchlink-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("log").path
    }

    @Test func syncedRecordsSurviveReopenAndUnsyncedDoNot() throws {
        let path = temporaryPath()
        do {
            let store = try FileStore(path: path)
            try store.append([.orderedWatermark(1), .orderedNextSequence(2)])
            try store.sync()
            try store.append([.orderedWatermark(3)])
        }
        #expect(try FileStore(path: path).load() == [.orderedWatermark(1), .orderedNextSequence(2)])
    }

    @Test func replaceIsAtomicAndAppendsContinue() throws {
        let path = temporaryPath()
        let store = try FileStore(path: path)
        try store.append([.orderedWatermark(1)])
        try store.sync()
        try store.replace(with: [.orderedWatermark(9)])
        try store.append([.orderedNextSequence(4)])
        try store.sync()
        #expect(try store.load() == [.orderedWatermark(9), .orderedNextSequence(4)])
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func everyRecordKindRoundTripsThroughTheLog() throws {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        var request = WireRequest(
            typeKey: WatchTypeKey("app.ping"), payload: Data("{}".utf8), requestID: id, idempotencyKey: "k",
            isDurable: true, createdAt: WatchTimestamp(milliseconds: 1), deadline: WatchTimestamp(milliseconds: 9))
        request.sequence = 4
        request.floor = 2
        let ok = WireResponse(
            requestID: id, idempotencyKey: "k", outcome: .success(Data("1".utf8)), createdAt: WatchTimestamp(milliseconds: 5))
        let failed = WireResponse(
            requestID: id, idempotencyKey: "k", outcome: .failure(WatchLinkError(.timeout, "late", details: ["a": "b"])),
            createdAt: WatchTimestamp(milliseconds: 6))
        let records: [DurableRecord] = [
            .outboxAdded(OutboxEntry(request: request, strategy: .userInfoOnly, retry: RetryPolicy(maximumAttempts: 3))),
            .outboxAdded(OutboxEntry(request: request, strategy: .messageOnly, retry: .standard)),
            .outboxSettled(id, ok), .outboxSettled(id, failed),
            .inboxStarted(InboxStart(idempotencyKey: "k", requestID: id, deadline: WatchTimestamp(milliseconds: 9), sequence: 4)),
            .inboxStarted(InboxStart(idempotencyKey: "j", requestID: id, deadline: WatchTimestamp(milliseconds: 9))),
            .inboxFinished(failed, deadline: WatchTimestamp(milliseconds: 9)), .orderedWatermark(3), .boot(2),
        ]
        #expect(try FileStore.decodeLog(FileStore.frame(records)) == records)
        // NB: logs written before the binary layout hold JSON records; they still load.
        let json = try WireCodec.makeEncoder().encode(records[0])
        let n = UInt32(json.count)
        let legacy = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + [UInt8](json)
        #expect(try FileStore.decodeLog(legacy) == [records[0]])
    }

    @Test func tornTailIsIgnored() throws {
        var bytes = try FileStore.frame([.orderedWatermark(1), .orderedWatermark(2)])
        bytes.removeLast(3)
        #expect(try FileStore.decodeLog(bytes) == [.orderedWatermark(1)])
    }

    @Test func corruptOrHostileRecordsAreReportedWithTheirPosition() throws {
        var bytes = try FileStore.frame([.orderedWatermark(1)])
        bytes += [0, 0, 0, 3] + Array("{x}".utf8)
        do {
            _ = try FileStore.decodeLog(bytes)
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .storageFailed)
            #expect(error.details["field"] == "log[1]")
        }
        #expect(throws: WatchLinkError.self) { try FileStore.decodeLog([0xFF, 0xFF, 0xFF, 0xFF, 1, 2]) }
    }

    @Test func inMemoryStoreLosesUnsyncedOnCrash() {
        let store = InMemoryStore()
        store.append([.orderedWatermark(1)])
        store.sync()
        store.append([.orderedWatermark(2)])
        store.crash()
        #expect(store.load() == [.orderedWatermark(1)])
    }
}
