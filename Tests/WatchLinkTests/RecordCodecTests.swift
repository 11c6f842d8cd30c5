import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

extension RecordCodec {
    /// A record's bytes on their own.
    static func encode(_ record: DurableRecord) -> [UInt8] {
        var out = ByteWriter(capacity: 256)
        encode(record, into: &out)
        return out.take()
    }
}

/// The log's records: every kind in the binary layout, the JSON of earlier versions still read,
/// and damaged records refused with the field at fault named.
@Suite struct RecordCodecTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!

    static let request = WireRequest(
        typeKey: WatchTypeKey("app.note"), payload: Data([1, 2, 3]), requestID: id, idempotencyKey: "note-1",
        isFireAndForget: true, createdAt: WatchTimestamp(milliseconds: 1000), deadline: WatchTimestamp(milliseconds: 9000),
        sequence: 4, floor: 2)

    static let version = StateVersion(
        sequenceNumber: 3, timestamp: WatchTimestamp(milliseconds: 1234), origin: .watch, updateID: id, phoneCounter: 2,
        watchCounter: 5)

    /// One record of every kind.
    static let records: [DurableRecord] = [
        .outboxAdded(OutboxEntry(request: request, strategy: .userInfoOnly, retry: .standard)),
        .outboxSettled(
            id,
            WireResponse(requestID: id, idempotencyKey: "note-1", outcome: .success(Data([9])), createdAt: .init(milliseconds: 5))
        ),
        .outboxAcknowledged([id, UUID(uuidString: "00000000-0000-0000-0000-000000000001")!]),
        .inboxStarted(InboxStart(idempotencyKey: "note-1", requestID: id, deadline: .init(milliseconds: 9000), sequence: 4)),
        .inboxFinished(
            WireResponse(
                requestID: id, idempotencyKey: "note-1",
                outcome: .failure(WatchLinkError(.handlerFailed, "no", details: ["a": "b"])),
                createdAt: .init(milliseconds: 6)),
            deadline: .init(milliseconds: 9000)),
        .orderedWatermark(41),
        .orderedNextSequence(1 << 40),
        .boot(7),
        .inboxHorizon(WatchTimestamp(milliseconds: -5)),
        .state(key: "mood", StateEntry(value: Data(#"{"v":"happy"}"#.utf8), version: version)),
        .state(key: "caf\u{E9} \u{1F600}", StateEntry(value: Data(), version: version)),
    ]

    @Test(arguments: records) func everyKindIsBinaryAndRoundTrips(record: DurableRecord) throws {
        let bytes = RecordCodec.encode(record)
        #expect(bytes.first == WireBinary.marker)
        #expect(try RecordCodec.decode(bytes[...], json: JSONDecoder()) == record)
        // NB: read in place from a slice that does not start at index 0, as the log's image is read.
        let padded = [0, 0, 0] + bytes
        #expect(try RecordCodec.decode(padded[3...], json: JSONDecoder()) == record)
    }

    /// A frame written in place (the body encoded straight into the log's bytes) is the frame of
    /// the record's own bytes, after whatever the array held, and reads back as the record.
    @Test func framesWrittenInPlaceAreTheFramesOfTheRecordsBytes() throws {
        let seed = LogFrame.seed(salt: [1, 2, 3, 4, 5, 6, 7, 8])
        // NB: the expected frames spelled out, `length | CRC-32 of the salt, length and body | body`.
        var expected: [UInt8] = []
        for record in Self.records {
            let body = RecordCodec.encode(record)
            let length = withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) }
            let sum = CRC32.checksum(length + body, after: seed)
            expected += length + withUnsafeBytes(of: sum.bigEndian) { Array($0) } + body
        }
        #expect(FileStore.frames(Self.records, seed: seed) == expected)
        var grown: [UInt8] = [0xAA, 0xBB]
        for record in Self.records { LogFrame.append(to: &grown, seed: seed) { RecordCodec.encode(record, into: &$0) } }
        #expect(grown == [0xAA, 0xBB] + expected)
        let scan = LogFrame.scan(expected, from: 0, maximumLength: 1 << 20, seed: seed)
        #expect(scan.damaged.isEmpty)
        #expect(try scan.bodies.map { try RecordCodec.decode(expected[$0], json: JSONDecoder()) } == Self.records)
    }

    @Test(arguments: records) func theJSONOfEarlierVersionsStillLoads(record: DurableRecord) throws {
        let json = [UInt8](try WireCodec.makeEncoder().encode(record))
        #expect(json.first == UInt8(ascii: "{"))
        #expect(try RecordCodec.decode(json[...], json: JSONDecoder()) == record)
    }

    @Test(arguments: records) func everyTruncationIsRefusedNamingAField(record: DurableRecord) {
        let bytes = RecordCodec.encode(record)
        for cut in 1..<bytes.count {
            do {
                let read = try RecordCodec.decode(bytes[..<cut], json: JSONDecoder())
                Issue.record("a record cut at \(cut) of \(bytes.count) bytes read as \(read)")
            } catch {
                #expect(error.details["field"]?.hasPrefix("record.") == true, "\(error)")
            }
        }
        #expect(throws: WatchLinkError.self) { try RecordCodec.decode((bytes + [0])[...], json: JSONDecoder()) }
    }

    @Test func anUnknownTagOrDeviceIsRefusedNamingTheField() throws {
        func field(_ bytes: [UInt8]) -> String? {
            do {
                _ = try RecordCodec.decode(bytes[...], json: JSONDecoder())
                return nil
            } catch { return error.details["field"] }
        }
        #expect(field([WireBinary.marker, 99]) == "record.tag")
        #expect(field([WireBinary.marker]) == "record.tag")
        let state = RecordCodec.encode(.state(key: "k", StateEntry(value: Data(), version: Self.version)))
        // NB: "watch" is the origin's text; the same length, another device.
        let text = Array("watch".utf8)
        let at = try #require(state.firstRange(of: text))
        var tablet = state
        tablet.replaceSubrange(at, with: Array("table".utf8))
        #expect(field(tablet) == "record.version.origin")
        var badKey = RecordCodec.encode(.state(key: "k", StateEntry(value: Data(), version: Self.version)))
        badKey[3] = 0xFF
        #expect(field(badKey) == "record.key", "invalid UTF-8")
    }

    @Test func aLargeStateValueRoundTrips() throws {
        let value = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) })
        let record = DurableRecord.state(key: String(repeating: "k", count: 300), StateEntry(value: value, version: Self.version))
        #expect(try RecordCodec.decode(RecordCodec.encode(record)[...], json: JSONDecoder()) == record)
    }

    /// A log written with the JSON records of an earlier version loads, and what is appended to it
    /// after is binary: both kinds in one file.
    @Test func aLogOfJSONRecordsLoadsAndGrowsInBinary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let encoder = WireCodec.makeEncoder()
        let salt: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        var image = FileStore.header(salt: salt)
        let old: [DurableRecord] = [.boot(1), .orderedWatermark(3), Self.records[9]]
        for record in old { LogFrame.append([UInt8](try encoder.encode(record)), to: &image, seed: LogFrame.seed(salt: salt)) }
        try Data(image).write(to: URL(fileURLWithPath: path))
        let store = try FileStore(path: path)
        #expect(try store.load() == old)
        try store.append([.boot(2), .inboxHorizon(.init(milliseconds: 77))])
        try store.sync()
        #expect(try FileStore(path: path).load() == old + [.boot(2), .inboxHorizon(.init(milliseconds: 77))])
    }
}
