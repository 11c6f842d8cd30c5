import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

extension FileStore {
    /// The salt of the log images these tests build.
    static let testSalt: [UInt8] = [0x51, 0xA7, 0x03, 0x9E, 0x44, 0x12, 0xC8, 0x6D]
    /// The header of the images these tests build.
    static var header: [UInt8] { header(salt: testSalt) }

    /// A log image of `records` salted with ``testSalt``.
    static func frame(_ records: [DurableRecord]) throws(WatchLinkError) -> [UInt8] { image(records, salt: testSalt) }

    /// Frames of `records` for an image salted with ``testSalt``.
    static func frames(_ records: [DurableRecord]) throws(WatchLinkError) -> [UInt8] {
        frames(records, seed: LogFrame.seed(salt: testSalt))
    }
}

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

    @Test func aSyncCountsTheRecordsItWrote() throws {
        let store = try FileStore(path: temporaryPath())
        #expect(store.bufferedRecords == 0)
        try store.append([.orderedWatermark(1), .orderedNextSequence(2)])
        try store.append([.orderedWatermark(3)])
        #expect(store.bufferedRecords == 3)
        #expect(try store.syncCountingRecords() == 3)
        #expect(store.bufferedRecords == 0)
        #expect(try store.syncCountingRecords() == 0, "a sync with nothing buffered wrote nothing")
        try store.append([.orderedWatermark(4)])
        try store.sync()
        #expect(store.bufferedRecords == 0)
        // NB: a replacement drops what was buffered (the snapshot holds it): the next sync writes nothing.
        try store.append([.orderedWatermark(5)])
        try store.replace(with: [.orderedWatermark(5)])
        #expect(store.bufferedRecords == 0)
        #expect(try store.syncCountingRecords() == 0)
        #expect(try store.load() == [.orderedWatermark(5)])
    }

    func fileBytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The salt in the header of the log at `path`.
    func salt(of path: String) throws -> [UInt8] {
        Array(try fileBytes(path)[FileStore.magic.count..<(FileStore.magic.count + 8)])
    }

    /// Frames of `records` as the log at `path` writes them (with its salt).
    func frames(_ records: [DurableRecord], asIn path: String) throws -> [UInt8] {
        FileStore.frames(records, seed: LogFrame.seed(salt: try salt(of: path)))
    }

    @Test func theFileGrowsAheadOfTheLogWithZerosAndAReopenedLogWritesAtItsEnd() throws {
        let path = temporaryPath()
        let first: [DurableRecord] = [.orderedWatermark(1), .orderedNextSequence(2)]
        do {
            let store = try FileStore(path: path)
            try store.append(first)
            try store.sync()
        }
        // NB: 64 KiB: the log's bytes, then zeros, which are free space and not damage.
        var bytes = try fileBytes(path)
        let salt = Array(bytes[FileStore.magic.count..<(FileStore.magic.count + 8)])
        let image = FileStore.image(first, salt: salt)
        #expect(bytes.count == FileStore.minimumGrowth)
        #expect(Array(bytes.prefix(image.count)) == image)
        #expect(bytes[image.count...].allSatisfy { $0 == 0 })
        let reopened = try FileStore(path: path)
        #expect(try reopened.load() == first)
        #expect(reopened.lastRecovery.isEmpty)
        try reopened.append([.boot(7)])
        try reopened.sync()
        // NB: the new record follows the last one, over the zeros, and the file kept its size.
        bytes = try fileBytes(path)
        let whole = FileStore.image(first + [.boot(7)], salt: salt)
        #expect(bytes.count == FileStore.minimumGrowth)
        #expect(Array(bytes.prefix(whole.count)) == whole)
        #expect(try FileStore(path: path).load() == first + [.boot(7)])
    }

    @Test func aLogThatOutgrowsItsFileGrowsItByAStepAsLargeAsTheFile() throws {
        #expect(FileStore.grownSize(from: 10, growing: 8) == 64 << 10)
        #expect(FileStore.grownSize(from: (64 << 10) + 1, growing: 64 << 10) == 128 << 10)
        #expect(FileStore.grownSize(from: (128 << 10) + 1, growing: 128 << 10) == 256 << 10)
        #expect(FileStore.grownSize(from: (5 << 20) + 1, growing: 5 << 20) == 6 << 20, "at most 1 MiB at a time")
        #expect(FileStore.grownSize(from: 300 << 10, growing: 64 << 10) == 320 << 10, "a large group is covered at once")
        let path = temporaryPath()
        let store = try FileStore(path: path)
        var records: [DurableRecord] = []
        for n in 0..<40 {
            // NB: about 10 KiB a group, so the file grows several times.
            let group = (0..<100).map { DurableRecord.orderedWatermark(UInt64(n * 100 + $0)) }
            try store.append(group)
            try store.sync()
            records += group
        }
        let bytes = try fileBytes(path)
        let image = try FileStore.frame(records)
        #expect(bytes.count >= image.count && bytes.count % (64 << 10) == 0 && bytes.count - image.count <= 1 << 20)
        #expect(try FileStore(path: path).load() == records)
    }

    @Test func aFrameWhoseBodyEndsInZerosIsKeptWholeBeforeTheFreeSpace() {
        var image: [UInt8] = []
        LogFrame.append([1, 2, 3], to: &image)
        LogFrame.append([4, 0, 0, 0], to: &image)
        let frames = image.count
        image += [UInt8](repeating: 0, count: 4096)
        let scan = LogFrame.scan(image, from: 0, maximumLength: 64, zerosEndTheLog: true)
        #expect(scan.bodies.map { Array(image[$0]) } == [[1, 2, 3], [4, 0, 0, 0]])
        #expect(scan.bodies.last?.upperBound == frames)
        #expect(scan.damaged.isEmpty)
        // NB: without the option (the user-info log), the zeros are damage as before.
        #expect(LogFrame.scan(image, from: 0, maximumLength: 64).damaged == [frames..<image.count])
        // NB: zeros followed by anything are damage, whose end is the next whole frame.
        var torn = Array(image.prefix(frames + 100))
        LogFrame.append([9], to: &torn)
        let rescanned = LogFrame.scan(torn, from: 0, maximumLength: 64, zerosEndTheLog: true)
        #expect(rescanned.bodies.map { Array(torn[$0]) } == [[1, 2, 3], [4, 0, 0, 0], [9]])
        #expect(rescanned.damaged == [frames..<(frames + 100)])
    }

    @Test func bytesCraftedToMakeTheSearchAfterDamageQuadraticAreGivenUpOnWithinItsBudget() {
        var image: [UInt8] = []
        LogFrame.append([1, 2, 3], to: &image)
        let first = image.count
        // NB: damage in which every fourth offset claims a body of 64 KiB that the image holds: a
        // search that checksummed each claim would checksum about 4 GiB here.
        let pattern: [UInt8] = [0x00, 0x01, 0x00, 0x00]
        for _ in 0..<(256 << 10) / pattern.count { image += pattern }
        image += [UInt8](repeating: 0x55, count: 128 << 10)
        LogFrame.append([9], to: &image)
        let scan = LogFrame.scan(image, from: 0, maximumLength: 1 << 20)
        let budget = (1 << 20) + 16 * image.count
        #expect(scan.bodies.map { Array(image[$0]) } == [[1, 2, 3]])
        #expect(scan.damaged == [first..<image.count], "past the budget, the rest is damage")
        #expect(scan.searched > budget && scan.searched <= budget + (1 << 20) + 4, "\(scan.searched) bytes checksummed")
        // NB: within its budget the search goes on, and finds the frame after the damage.
        var small: [UInt8] = []
        LogFrame.append([1, 2, 3], to: &small)
        for _ in 0..<1024 { small += [0x00, 0x00, 0x01, 0x00] }
        small += [UInt8](repeating: 0x55, count: 512)
        LogFrame.append([9], to: &small)
        let within = LogFrame.scan(small, from: 0, maximumLength: 1 << 20)
        #expect(within.bodies.map { Array(small[$0]) } == [[1, 2, 3], [9]])
        #expect(within.searched <= (1 << 20) + 16 * small.count)
    }

    @Test func aTornGroupInTheFreeSpaceIsDroppedAndTheLogRewritten() throws {
        let path = temporaryPath()
        let synced: [DurableRecord] = [.orderedWatermark(1), .orderedNextSequence(2)]
        do {
            let store = try FileStore(path: path)
            try store.append(synced)
            try store.sync()
        }
        // A crash: the next group's first record reached the free space all but its last two bytes.
        let tail = try frames([.boot(3)], asIn: path)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(try FileStore.frame(synced).count))
        handle.write(Data(tail.dropLast(2)))
        try handle.close()
        let store = try FileStore(path: path)
        #expect(try store.load() == synced)
        #expect(!store.lastRecovery.isEmpty)
        try store.append([.boot(5)])
        try store.sync()
        let reopened = try FileStore(path: path)
        #expect(try reopened.load() == synced + [.boot(5)])
        #expect(reopened.lastRecovery.isEmpty)
    }

    @Test func aFrameARecordHoldsNeverPassesForARecordOnceTheRecordIsTorn() throws {
        let forged: [DurableRecord] = [.orderedWatermark(666)]
        func carrier(_ inner: [UInt8]) -> DurableRecord {
            let request = WireRequest(
                typeKey: WatchTypeKey("app.note"), payload: Data(inner), requestID: UUID(), idempotencyKey: "k",
                isDurable: true, createdAt: WatchTimestamp(milliseconds: 1), deadline: WatchTimestamp(milliseconds: 9))
            return .outboxAdded(OutboxEntry(request: request, strategy: .messageOnly, retry: .standard))
        }
        func loadedAfterTearing(_ inner: [UInt8]) throws -> [DurableRecord] {
            let records: [DurableRecord] = [.boot(1), carrier(inner), .boot(2)]
            var image = try FileStore.frame(records)
            // NB: the carrier's length damaged, as a torn write would leave it: reading looks for the
            // next valid frame inside its bytes.
            let carrierStart = try FileStore.frame([.boot(1)]).count
            image[carrierStart + 1] ^= 0xFF
            return try FileStore.scanLog(image).0
        }
        // An app's bytes holding a frame made unsalted, or with any salt but this file's, stay bytes.
        let unsalted = FileStore.frames(forged, seed: LogFrame.unsalted)
        let otherSalt = FileStore.frames(forged, seed: LogFrame.seed(salt: [1, 2, 3, 4, 5, 6, 7, 8]))
        for inner in [unsalted, otherSalt, unsalted + otherSalt] {
            #expect(try loadedAfterTearing(inner) == [.boot(1), .boot(2)])
        }
        // NB: the control: with this file's salt (which an app cannot know), the frame is found, so
        // the test would see a forged record.
        #expect(try loadedAfterTearing(try FileStore.frames(forged)).contains(.orderedWatermark(666)))
    }

    @Test func aLogOfVersionTwoIsReadAndRewrittenSalted() throws {
        let path = temporaryPath()
        let records: [DurableRecord] = [.orderedWatermark(1), .boot(2)]
        try Data(FileStore.unsaltedMagic + FileStore.frames(records, seed: LogFrame.unsalted))
            .write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        // NB: rewritten when opened, before any load.
        #expect(try fileBytes(path).starts(with: FileStore.magic))
        #expect(try store.load() == records)
        #expect(store.lastRecovery.isEmpty)
        let bytes = try fileBytes(path)
        #expect(bytes.starts(with: FileStore.magic))
        #expect(bytes[8..<16] == bytes[16..<24])
        try store.append([.boot(3)])
        try store.sync()
        let reopened = try FileStore(path: path)
        #expect(try reopened.load() == records + [.boot(3)])
        #expect(reopened.lastRecovery.isEmpty)
    }

    @Test func aTornLogOfVersionTwoKeepsItsSyncedRecordsAndReportsTheTear() throws {
        let path = temporaryPath()
        let records: [DurableRecord] = [.orderedWatermark(1), .boot(2)]
        let torn = FileStore.frames([.boot(3)], seed: LogFrame.unsalted).dropLast(3)
        try Data(FileStore.unsaltedMagic + FileStore.frames(records, seed: LogFrame.unsalted) + torn + [0, 0, 0])
            .write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        #expect(try store.load() == records)
        #expect(!store.lastRecovery.isEmpty, "the tear, dropped when the log was rewritten on opening")
        #expect(try store.load() == records)
        #expect(store.lastRecovery.isEmpty, "a later load finds the log whole")
    }

    @Test func everyLogHasASaltOfItsOwnAndACompactionANewOne() throws {
        let first = temporaryPath()
        let second = temporaryPath()
        let store = try FileStore(path: first)
        _ = try FileStore(path: second)
        let before = try salt(of: first)
        #expect(before != (try salt(of: second)))
        try store.replace(with: [.boot(1)])
        #expect(before != (try salt(of: first)))
        #expect(try FileStore(path: first).load() == [.boot(1)])
    }

    @Test func aLogOfALaterVersionIsRefusedNotRewritten() throws {
        let path = temporaryPath()
        do {
            let store = try FileStore(path: path)
            try store.append([.boot(1)])
            try store.sync()
        }
        var bytes = try fileBytes(path)
        bytes[7] = 4
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: WatchLinkError.self) { _ = try FileStore(path: path) }
        #expect(try fileBytes(path) == bytes, "left as it was")
    }

    @Test func aLogWithADamagedMagicAndNoRecordStillOpens() throws {
        let path = temporaryPath()
        _ = try FileStore(path: path)
        var bytes = try fileBytes(path)
        bytes[2] ^= 0x10
        // NB: then a group torn before it was synced.
        bytes += try frames([.boot(3)], asIn: path).dropLast(2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        #expect(try store.load() == [])
        #expect(store.lastRecovery.first == 0..<8)
        try store.append([.boot(4)])
        try store.sync()
        #expect(try FileStore(path: path).load() == [.boot(4)])
    }

    @Test(arguments: [(8, 8..<24), (15, 8..<24), (16, 8..<24), (23, 8..<24), (0, 0..<8), (5, 0..<8), (7, 0..<8)])
    func aDamagedHeaderIsReadWithItsSalt(_ position: Int, _ reported: Range<Int>) throws {
        let path = temporaryPath()
        let records: [DurableRecord] = [.orderedWatermark(1), .boot(2), .orderedNextSequence(3)]
        do {
            let store = try FileStore(path: path)
            try store.append(records)
            try store.sync()
        }
        var bytes = try fileBytes(path)
        // NB: at 7, the version byte 3 becomes 2: the magic of a log without a salt.
        bytes[position] ^= position == 7 ? 0x01 : 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        #expect(try store.load() == records)
        #expect(store.lastRecovery == [reported])
        let reopened = try FileStore(path: path)
        #expect(try reopened.load() == records, "rewritten with a whole header")
        #expect(reopened.lastRecovery.isEmpty)
    }

    /// With both copies of the salt damaged no record can be checked: the log is refused and left
    /// as it was, not read as empty (its records would be lost); one that never held a record opens.
    @Test func aSaltDamagedInBothCopiesIsRefusedNotReadAsAnEmptyLog() throws {
        func damageBothCopies(_ path: String) throws -> [UInt8] {
            var bytes = try fileBytes(path)
            bytes[9] ^= 0x20
            bytes[20] ^= 0x04
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return bytes
        }
        let path = temporaryPath()
        do {
            let store = try FileStore(path: path)
            try store.append([.boot(1), .orderedWatermark(2)])
            try store.sync()
        }
        let bytes = try damageBothCopies(path)
        let error = #expect(throws: WatchLinkError.self) { _ = try FileStore(path: path) }
        #expect(error?.code == .storageFailed)
        #expect(error?.details["field"] == "log.salt")
        #expect(try fileBytes(path) == bytes, "left as it was")
        let empty = temporaryPath()
        _ = try FileStore(path: empty)
        _ = try damageBothCopies(empty)
        let store = try FileStore(path: empty)
        #expect(try store.load() == [])
        #expect(store.lastRecovery == [8..<24])
    }

    @Test func replaceIsAtomicAndAppendsContinue() throws {
        let path = temporaryPath()
        let store = try FileStore(path: path)
        try store.append([.orderedWatermark(1)])
        try store.sync()
        try store.replace(with: [.orderedWatermark(9)])
        // NB: the first sync after the replacement grows the file; the second must write over the
        // zeros, where a descriptor left open for appending would write after them.
        try store.append([.orderedNextSequence(4)])
        try store.sync()
        try store.append([.boot(5)])
        try store.sync()
        let records: [DurableRecord] = [.orderedWatermark(9), .orderedNextSequence(4), .boot(5)]
        #expect(try store.load() == records)
        #expect(store.lastRecovery.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        let bytes = try fileBytes(path)
        let image = FileStore.image(records, salt: Array(bytes[FileStore.magic.count..<(FileStore.magic.count + 8)]))
        #expect(bytes.count == FileStore.minimumGrowth)
        #expect(Array(bytes.prefix(image.count)) == image)
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

    @Test func aWholeRecordThatCannotBeReadIsReportedWithItsPosition() throws {
        var bytes = try FileStore.frame([.orderedWatermark(1)])
        LogFrame.append(Array("{x}".utf8), to: &bytes, seed: LogFrame.seed(salt: FileStore.testSalt))
        do {
            _ = try FileStore.decodeLog(bytes)
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .storageFailed)
            #expect(error.details["field"] == "log[1]")
        }
        // The format before the header: an implausible length is an error, not a record.
        #expect(throws: WatchLinkError.self) { try FileStore.decodeLog([0xFF, 0xFF, 0xFF, 0xFF, 1, 2]) }
    }

    @Test func aFrameAfterDamageThatDoesNotDecodeIsMoreDamageNotAnError() throws {
        let records: [DurableRecord] = [.orderedWatermark(1), .boot(2)]
        var image = try FileStore.frame([records[0]])
        image += [0xDE, 0xAD, 0xBE, 0xEF, 0x00]  // damage
        // NB: checks out (with the file's salt), does not decode.
        LogFrame.append(Array("not a record".utf8), to: &image, seed: LogFrame.seed(salt: FileStore.testSalt))
        image += try FileStore.frames([records[1]])
        let (loaded, damaged) = try FileStore.scanLog(image)
        #expect(loaded == records)
        #expect(damaged.count == 2)
    }

    /// Records of every size class, written in `groups` syncs.
    static func sampleGroups() -> [[DurableRecord]] {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let request = WireRequest(
            typeKey: WatchTypeKey("app.note"), payload: Data(repeating: 0x41, count: 300), requestID: id, idempotencyKey: "k",
            isDurable: true, createdAt: WatchTimestamp(milliseconds: 1), deadline: WatchTimestamp(milliseconds: 9))
        return (0..<4).map { group in
            [
                .orderedWatermark(UInt64(group)),
                .outboxAdded(OutboxEntry(request: request, strategy: .messageOnly, retry: .standard)),
                .inboxStarted(
                    InboxStart(idempotencyKey: "g\(group)", requestID: id, deadline: WatchTimestamp(milliseconds: 9))),
                .boot(UInt64(group)),
            ]
        }
    }

    @Test func everySyncedRecordSurvivesATornZeroFilledOrGarbageTailAtEveryOffset() throws {
        let groups = Self.sampleGroups()
        let synced = Array(groups.dropLast().joined())
        let syncedImage = try FileStore.frame(synced)
        let full = syncedImage + (try FileStore.frames(groups.last!))
        var random = SystemRandomNumberGenerator()
        for cut in syncedImage.count...full.count {
            let kept = Array(full[0..<cut])
            for (name, image) in [
                ("truncated", kept), ("zero-filled", kept + [UInt8](repeating: 0, count: full.count - cut + 4096)),
                ("garbage", kept + (0..<(full.count - cut + 64)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ] {
                let (records, _) = try FileStore.scanLog(image)
                #expect(Array(records.prefix(synced.count)) == synced, "\(name) at \(cut)")
                #expect(records.count <= synced.count + groups.last!.count, "\(name) at \(cut)")
                #expect(Array(records.dropFirst(synced.count)) == Array(groups.last!.prefix(records.count - synced.count)))
            }
        }
    }

    @Test func aDamagedByteAnywhereInTheLogLosesOnlyTheRecordItIsIn() throws {
        let records = Array(Self.sampleGroups().joined())
        let image = try FileStore.frame(records)
        // Where each record's frame starts and ends.
        var bounds: [Range<Int>] = []
        var offset = FileStore.header.count
        for record in records {
            let length = try FileStore.frames([record]).count
            bounds.append(offset..<(offset + length))
            offset += length
        }
        for position in FileStore.header.count..<image.count {
            var damaged = image
            damaged[position] ^= 0x5A
            let (loaded, dropped) = try FileStore.scanLog(damaged)
            let hit = try #require(bounds.firstIndex { $0.contains(position) })
            var expected = records
            expected.remove(at: hit)
            #expect(loaded == expected, "a flip at \(position) lost more than record \(hit)")
            #expect(!dropped.isEmpty)
        }
    }

    @Test func aDamagedLogIsRewrittenOnLoadSoAppendsNeverFollowGarbage() throws {
        let groups = Self.sampleGroups()
        let synced = Array(groups.dropLast().joined())
        let path = temporaryPath()
        do {
            let store = try FileStore(path: path)
            for group in groups.dropLast() {
                try store.append(group)
                try store.sync()
            }
        }
        // A crash: half of the last group's write reached the disk, at the log's end, then zeros.
        let tail = try frames(groups.last!, asIn: path)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(try FileStore.frame(synced).count))
        handle.write(Data(tail.prefix(tail.count / 2)) + Data(count: 512))
        try handle.close()

        let store = try FileStore(path: path)
        let loaded = try store.load()
        #expect(Array(loaded.prefix(synced.count)) == synced)
        #expect(!store.lastRecovery.isEmpty)
        try store.append([.orderedWatermark(99)])
        try store.sync()
        let reopened = try FileStore(path: path)
        #expect(try reopened.load() == loaded + [.orderedWatermark(99)])
        #expect(reopened.lastRecovery.isEmpty, "the rewritten log is whole")
    }

    @Test func aLogOfTheFormatBeforeTheHeaderIsRewrittenInTheNewOne() throws {
        let path = temporaryPath()
        let records: [DurableRecord] = [.orderedWatermark(1), .boot(2)]
        var legacy: [UInt8] = []
        let encoder = WireCodec.makeEncoder()
        for record in records {
            // NB: these kinds were JSON in that format.
            let body = [UInt8](try encoder.encode(record))
            let n = UInt32(body.count)
            legacy += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
        }
        try Data(legacy).write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        #expect(try store.load() == records)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: FileStore.magic))
        try store.append([.boot(3)])
        try store.sync()
        #expect(try FileStore(path: path).load() == records + [.boot(3)])
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
