import Foundation
import Testing

@testable import WatchLink

/// The socket transport's user-info log: appends stay the size of one item, acknowledgements
/// and compactions never lose a live item or reuse an id, damage loses only the records it is in
/// (a torn tail, a changed byte anywhere), and a record that checks out but is not valid is
/// refused naming it.
@Suite struct UserInfoLogTests {
    func directory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("uilog-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The salt of the logs these tests write by hand.
    let salt: [UInt8] = Array(repeating: 0xA5, count: 8)
    var header: [UInt8] { UserInfoLog.header(salt: salt) }

    /// `body` as one frame of a log salted with `salt`.
    func frame(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        LogFrame.append(body, to: &out, seed: LogFrame.seed(salt: salt))
        return out
    }

    /// A record of a log salted with `salt` (by default, the tests' own).
    func record(_ kind: UserInfoLog.Kind, _ id: UInt64, _ data: Data, salt: [UInt8]? = nil) -> [UInt8] {
        UserInfoLog.record(kind, id, data, seed: LogFrame.seed(salt: salt ?? self.salt))
    }

    let jump = UserInfoLog.idJumpAfterDamage

    /// Writes a log at `path` holding `items` (ids from 1), and returns its salt.
    func writeLog(_ path: String, _ items: [String]) throws -> [UInt8] {
        let (log, _) = try UserInfoLog.load(path: path)
        for item in items { _ = try log.add(Data(item.utf8)) }
        return log.salt
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }

    @Test func eachAppendWritesOneRecordHoweverLongTheQueue() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items.isEmpty)
        let item = Data(repeating: 7, count: 1000)
        for expected in 1...300 {
            #expect(try log.add(item) == UInt64(expected))
            // Length, CRC-32, kind, 8-byte id, the item: the file grows by one record, never rewritten.
            #expect(size(path) == UserInfoLog.headerSize + expected * (17 + 1000))
        }
        let (_, reloaded) = try UserInfoLog.load(path: path)
        #expect(reloaded.map(\.id) == Array(1...300))
        #expect(reloaded.allSatisfy { $0.data == item })
    }

    @Test func acknowledgementsRemoveItemsAndCompactionKeepsTheNextID() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let (log, _) = try UserInfoLog.load(path: path)
        let big = Data(repeating: 1, count: 60_000)
        for _ in 0..<40 { _ = try log.add(big) }
        try log.acknowledge(through: 10, remaining: [])
        var (reopened, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.id) == Array(11...40))
        #expect(reopened.nextID == 41)
        // Acknowledging everything outweighs the (empty) live queue: the log is compacted to its next id.
        var live: [UserInfoLog.Item] = []
        try reopened.acknowledge(through: 40, remaining: live)
        #expect(size(path) == UserInfoLog.headerSize + 17)
        (reopened, items) = try UserInfoLog.load(path: path)
        #expect(items.isEmpty)
        #expect(reopened.nextID == 41)
        #expect(try reopened.add(Data("next".utf8)) == 41)
        live = [UserInfoLog.Item(id: 41, data: Data("next".utf8))]
        for _ in 0..<20 { live.append(UserInfoLog.Item(id: try reopened.add(big), data: big)) }
        try reopened.acknowledge(through: 41, remaining: Array(live.dropFirst()))
        (_, items) = try UserInfoLog.load(path: path)
        #expect(items == Array(live.dropFirst()))
    }

    @Test func aTornTailIsCutOffAndLaterAppendsSurvive() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let fileSalt = try writeLog(path, ["one", "two"])
        // A crash mid-append: the last record's length is there, most of its bytes are not.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(record(.add, 3, Data("three".utf8), salt: fileSalt).prefix(10)))
        try handle.close()
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.data) == [Data("one".utf8), Data("two".utf8)])
        #expect(try log.add(Data("four".utf8)) == 3 + jump)
        let (_, reloaded) = try UserInfoLog.load(path: path)
        #expect(reloaded.map(\.data) == [Data("one".utf8), Data("two".utf8), Data("four".utf8)])
    }

    @Test func everySyncedItemSurvivesATornOrZeroFilledAppendAtEveryOffset() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let fileSalt = try writeLog(path, (1...3).map { "item \($0)" })
        let synced = try Data(contentsOf: URL(fileURLWithPath: path))
        let torn = record(.add, 4, Data(repeating: 0x33, count: 40), salt: fileSalt)
        for cut in 0..<torn.count {
            for image in [synced + torn.prefix(cut), synced + torn.prefix(cut) + Data(count: 64)] {
                try image.write(to: URL(fileURLWithPath: path))
                let (log, items) = try UserInfoLog.load(path: path)
                #expect(items.map(\.id) == [1, 2, 3], "cut at \(cut)")
                let next = try log.add(Data("next".utf8))
                #expect(next == (image == synced ? 4 : 4 + jump), "cut at \(cut)")
                let (_, reloaded) = try UserInfoLog.load(path: path)
                #expect(reloaded.map(\.id) == [1, 2, 3, next], "the append after the cut follows a whole record")
            }
        }
    }

    @Test func aDamagedLengthLosesOnlyItsRecordNotTheSyncedOnesAfterIt() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        _ = try writeLog(path, (1...3).map { "item \($0)" })
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let second = UserInfoLog.headerSize + record(.add, 1, Data("item 1".utf8)).count
        // The second record's length now runs past the end of the file; the checksum covers the
        // length, so this is damage, not a torn tail that would take the third record with it.
        bytes[second + 3] = 200
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.id) == [1, 3])
        #expect(log.lastRecovery.count == 1)
        let next = try log.add(Data("item 4".utf8))
        #expect(next == 4 + jump)
        let (reopened, reloaded) = try UserInfoLog.load(path: path)
        #expect(reloaded.map(\.id) == [1, 3, next])
        #expect(reopened.lastRecovery.isEmpty, "the damaged file was rewritten without the damage")
    }

    @Test func aChangedByteAtAnyOffsetLosesOnlyTheRecordItIsIn() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        var bounds: [(id: UInt64, range: Range<Int>)] = []
        do {
            let (log, _) = try UserInfoLog.load(path: path)
            for n in 1...6 {
                let start = size(path)
                let id = try log.add(Data(repeating: UInt8(n), count: 20 * n))
                bounds.append((id, start..<size(path)))
            }
        }
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Every byte, the header's too: the magic is checked loosely and the salt is kept twice.
        for offset in 0..<whole.count {
            var damaged = whole
            damaged[offset] ^= 0x5A
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let (log, items) = try UserInfoLog.load(path: path)
            let hit = bounds.first { $0.range.contains(offset) }?.id
            #expect(items.map(\.id) == bounds.map(\.id).filter { $0 != hit }, "byte \(offset)")
            // Whichever record was lost, its id is never handed out again: the next one jumps.
            let next = try log.add(Data("after".utf8))
            #expect(next > 6 && next >= jump, "byte \(offset)")
        }
    }

    /// With both copies of the salt damaged no record can be checked: the log is refused and left
    /// as it was, never read as an empty queue; one that never held a record opens.
    @Test func aSaltDamagedInBothCopiesIsRefusedNotReadAsAnEmptyQueue() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func damageBothCopies(_ path: String) throws -> [UInt8] {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[9] ^= 0x20
            bytes[20] ^= 0x04
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return bytes
        }
        let path = root + "/userinfo.log"
        _ = try writeLog(path, ["one", "two"])
        let bytes = try damageBothCopies(path)
        let error = #expect(throws: WatchLinkError.self) { _ = try UserInfoLog.load(path: path) }
        #expect(error?.code == .storageFailed)
        #expect(error?.details["field"] == "salt")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "left as it was")
        let empty = root + "/empty.log"
        _ = try writeLog(empty, [])
        _ = try damageBothCopies(empty)
        let (log, items) = try UserInfoLog.load(path: empty)
        #expect(items.isEmpty)
        #expect(try log.add(Data("next".utf8)) >= 1)
    }

    @Test func aChangedByteInACompactedLogsNextIDNeverBringsIdsBack() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        do {
            let (log, _) = try UserInfoLog.load(path: path)
            try log.compact([], nextID: 1000)
        }
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for offset in UserInfoLog.headerSize..<whole.count {
            var damaged = whole
            damaged[offset] ^= 0x01
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let (log, items) = try UserInfoLog.load(path: path)
            #expect(items.isEmpty)
            #expect(try log.add(Data("next".utf8)) >= 1000, "byte \(offset)")
        }
    }

    @Test func aFrameInsideAnItemNeverComesBackAsARecordWhereverACrashTearsIt() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let fileSalt = try writeLog(path, ["kept"])
        let synced = try Data(contentsOf: URL(fileURLWithPath: path))
        // An app's item holding whole frames: an acknowledgement of everything, a huge next id and
        // a forged item, unsalted and under a salt other than the file's.
        var forged: [UInt8] = []
        for frameSalt in [nil, [UInt8](repeating: 0, count: 8)] as [[UInt8]?] {
            let seed = frameSalt.map { LogFrame.seed(salt: $0) } ?? LogFrame.unsalted
            forged += UserInfoLog.record(.acknowledged, .max - 1, Data(), seed: seed)
            forged += UserInfoLog.record(.next, .max - 1, Data(), seed: seed)
            forged += UserInfoLog.record(.add, 99, Data("forged".utf8), seed: seed)
        }
        let item = record(.add, 2, Data([0x01, 0x02] + forged), salt: fileSalt)
        for cut in 1..<item.count {
            try (synced + item.prefix(cut)).write(to: URL(fileURLWithPath: path))
            let (log, items) = try UserInfoLog.load(path: path)
            #expect(items.map(\.data) == [Data("kept".utf8)], "cut at \(cut)")
            #expect(log.nextID == 2 + jump, "cut at \(cut)")
        }
    }

    @Test func corruptRecordsAreRefusedNamingTheRecord() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let good = record(.add, 1, Data("ok".utf8))
        let earlier = UserInfoLog.earlierRecord(.add, 1, Data("ok".utf8))
        // Frames whose checksum holds, holding no valid record: not damage, so refused.
        let cases: [(String, [UInt8])] = [
            ("record[1]", header + good + frame([99] + [UInt8](repeating: 0, count: 8))),  // unknown kind
            ("record[0]", header + frame([1, 2, 3])),  // shorter than a record can be
            ("record[1]", header + good + record(.acknowledged, 1, Data("x".utf8))),  // an acknowledgement with bytes
            ("record[0]", header + record(.add, 0, Data("zero".utf8))),  // id 0
            ("record[0]", header + record(.next, 0, Data())),
            // The format before the header.
            ("record[1]", earlier + [0, 0, 0, 9, 99] + [UInt8](repeating: 0, count: 8)),  // unknown kind
            ("record[0]", [0x7F, 0xFF, 0xFF, 0xFF, 1]),  // implausible length
            ("record[0]", [0, 0, 0, 3, 1, 2, 3]),  // shorter than a record can be
            ("record[0]", UserInfoLog.earlierRecord(.add, 0, Data("zero".utf8))),  // id 0
        ]
        for (field, bytes) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                _ = try UserInfoLog.load(path: path)
                Issue.record("expected storage_failed for \(bytes.prefix(16))")
            } catch {
                #expect(error.code == .storageFailed)
                #expect(error.details["field"] == field)
                #expect(error.details["path"] == path)
            }
        }
    }

    @Test func aQueueFileOfAnEarlierVersionMovesIntoTheLog() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = SocketSession.QueueFile(
            nextID: 9, items: [.init(id: 5, data: Data("five".utf8)), .init(id: 7, data: Data("seven".utf8))])
        try JSONEncoder().encode(legacy).write(to: URL(fileURLWithPath: root + "/userinfo-queue.json"))
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root)
        #expect(session.outstandingUserInfoCount == 2)
        #expect(!FileManager.default.fileExists(atPath: root + "/userinfo-queue.json"))
        let (log, items) = try UserInfoLog.load(path: root + "/userinfo.log")
        #expect(items.map(\.id) == [5, 7])
        #expect(log.nextID == 9)
    }

    @Test func aFailedAppendIsCutOffSoTheNextRecordFollowsAWholeOne() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let (log, _) = try UserInfoLog.load(path: path)
        _ = try log.add(Data("one".utf8))
        let whole = size(path)
        // The disk fills up half way through the record.
        log.io.write = { fd, bytes in
            _ = FileStore.writeAll(fd, Array(bytes.prefix(bytes.count / 2)))
            errno = ENOSPC
            return false
        }
        #expect(throws: WatchLinkError.self) { try log.add(Data("two".utf8)) }
        #expect(size(path) == whole)
        log.io = UserInfoLog.IO()
        #expect(try log.add(Data("three".utf8)) == 2)
        try log.acknowledge(through: 1, remaining: [UserInfoLog.Item(id: 2, data: Data("three".utf8))])
        let (_, items) = try UserInfoLog.load(path: path)
        #expect(items == [UserInfoLog.Item(id: 2, data: Data("three".utf8))])
    }

    @Test func aLogThatCannotCutOffAFailedAppendRefusesLaterWrites() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let (log, _) = try UserInfoLog.load(path: path)
        _ = try log.add(Data("one".utf8))
        log.io.write = { fd, bytes in
            _ = FileStore.writeAll(fd, Array(bytes.prefix(5)))
            errno = EIO
            return false
        }
        log.io.truncate = { _, _ in false }
        #expect(throws: WatchLinkError.self) { try log.add(Data("two".utf8)) }
        log.io = UserInfoLog.IO()
        do {
            _ = try log.add(Data("three".utf8))
            Issue.record("a log holding a partial record accepted an append")
        } catch {
            #expect(error.code == .storageFailed)
            #expect(error.message.contains("could not cut off"))
        }
        // Opened again, the partial record is a torn tail: cut off, the first item kept.
        let (reopened, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.data) == [Data("one".utf8)])
        #expect(try reopened.add(Data("four".utf8)) == 2 + jump)
    }

    @Test func aTailOfZerosIsTornNotCorrupt() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let good = record(.add, 1, Data("ok".utf8))
        try Data(header + good + [UInt8](repeating: 0, count: 4096)).write(to: URL(fileURLWithPath: path))
        var (log, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.data) == [Data("ok".utf8)])
        // Rewritten without the zeros: the next id's record, then the item.
        let rewritten = header.count + record(.next, 2, Data()).count + good.count
        #expect(size(path) == rewritten)
        #expect(try log.add(Data("next".utf8)) == 2 + jump)
        // The length of the next record reached the disk, the page holding the rest did not.
        let next = record(.add, 2, Data("next".utf8))
        let third = record(.add, 3, Data("lost".utf8))
        try Data(header + good + next + third.prefix(4) + [UInt8](repeating: 0, count: 100)).write(
            to: URL(fileURLWithPath: path))
        (log, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.id) == [1, 2])
        #expect(size(path) == header.count + record(.next, 3, Data()).count + good.count + next.count)
        #expect(try log.add(Data("again".utf8)) == 3 + jump)
    }

    @Test func anUnreadableLogIsAnErrorNotAnEmptyQueue() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A directory where the log should be: it opens, but reading it fails.
        try FileManager.default.createDirectory(atPath: root + "/userinfo.log", withIntermediateDirectories: true)
        do {
            _ = try UserInfoLog.load(path: root + "/userinfo.log")
            Issue.record("an unreadable log was taken for an empty one")
        } catch {
            #expect(error.code == .storageFailed)
            #expect(error.message.hasPrefix("read failed"), "\(error.message)")
            #expect(error.details["path"] == root + "/userinfo.log")
        }
    }

    @Test func aStaleQueueFileNeverBringsBackAcknowledgedItems() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = SocketSession.QueueFile(
            nextID: 3, items: [.init(id: 1, data: Data("one".utf8)), .init(id: 2, data: Data("two".utf8))])
        // The log already took the old file in and has since seen item 1 acknowledged; the old
        // file is still there (its removal did not reach the disk).
        do {
            let (log, _) = try UserInfoLog.load(path: root + "/userinfo.log")
            try log.compact([.init(id: 1, data: Data("one".utf8)), .init(id: 2, data: Data("two".utf8))], nextID: 3)
            try log.acknowledge(through: 1, remaining: [.init(id: 2, data: Data("two".utf8))])
        }
        try JSONEncoder().encode(legacy).write(to: URL(fileURLWithPath: root + "/userinfo-queue.json"))
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root)
        #expect(session.outstandingUserInfoCount == 1)
        #expect(!FileManager.default.fileExists(atPath: root + "/userinfo-queue.json"))
        let (_, items) = try UserInfoLog.load(path: root + "/userinfo.log")
        #expect(items.map(\.id) == [2])
    }

    @Test func aRecordWhoseChecksumFailsIsDroppedAtTheEndOrInTheMiddle() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let first = record(.add, 1, Data("one".utf8))
        var second = record(.add, 2, Data("two!".utf8))
        // The file system kept the second record's length but not all of its bytes: zeros inside.
        for index in (second.count - 6)..<second.count { second[index] = 0 }
        try Data(header + first + second).write(to: URL(fileURLWithPath: path))
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.data) == [Data("one".utf8)])
        #expect(try log.add(Data("three".utf8)) == 2 + jump)
        // The same damage with a whole record after it: the record after it is kept.
        let third = record(.add, 3, Data("three".utf8))
        try Data(header + first + second + third).write(to: URL(fileURLWithPath: path))
        let (reopened, kept) = try UserInfoLog.load(path: path)
        #expect(kept.map(\.id) == [1, 3])
        #expect(reopened.lastRecovery == [(header.count + first.count)..<(header.count + first.count + second.count)])
    }

    @Test func aLogOfTheFormatBeforeTheHeaderIsReadOnceAndRewritten() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let earlier =
            UserInfoLog.earlierRecord(.add, 1, Data("one".utf8)) + UserInfoLog.earlierRecord(.add, 2, Data("two".utf8))
            + UserInfoLog.earlierRecord(.acknowledged, 1, Data())
        // A torn last record of the earlier format is cut off as it always was.
        try Data(earlier + UserInfoLog.earlierRecord(.add, 3, Data("torn".utf8)).prefix(9)).write(to: URL(fileURLWithPath: path))
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items == [UserInfoLog.Item(id: 2, data: Data("two".utf8))])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).starts(with: UserInfoLog.magic))
        #expect(try log.add(Data("three".utf8)) == 3)
        let (_, reloaded) = try UserInfoLog.load(path: path)
        #expect(reloaded.map(\.id) == [2, 3])
    }

    @Test func recordsWithoutAChecksumFromAnEarlierVersionStillLoad() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let legacy =
            UserInfoLog.earlierRecord(.add, 1, Data("one".utf8), checksum: false)
            + UserInfoLog.earlierRecord(.add, 2, Data("two".utf8), checksum: false)
            + UserInfoLog.earlierRecord(.acknowledged, 1, Data(), checksum: false)
        try Data(legacy).write(to: URL(fileURLWithPath: path))
        let (log, items) = try UserInfoLog.load(path: path)
        #expect(items == [UserInfoLog.Item(id: 2, data: Data("two".utf8))])
        #expect(try log.add(Data("three".utf8)) == 3)
        let (_, reloaded) = try UserInfoLog.load(path: path)
        #expect(reloaded.map(\.id) == [2, 3])
    }

    @Test func aFailedCompactionStillRecordsTheAcknowledgement() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/userinfo.log"
        let (log, _) = try UserInfoLog.load(path: path)
        let big = Data(repeating: 1, count: 60_000)
        for _ in 0..<30 { _ = try log.add(big) }
        // The compaction's file beside the log cannot be made: a directory stands in its way.
        try FileManager.default.createDirectory(atPath: path + ".tmp", withIntermediateDirectories: true)
        try log.acknowledge(through: 29, remaining: [UserInfoLog.Item(id: 30, data: big)])
        let (_, items) = try UserInfoLog.load(path: path)
        #expect(items.map(\.id) == [30])
    }
}
