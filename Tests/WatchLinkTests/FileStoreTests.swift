import Foundation
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
