import Foundation
import PWAKitRetry

/// Encodes log records for ``FileStore``, every kind in the binary layout of ``WireBinary``'s
/// primitives: a marker, a tag, then the record's fields in a fixed order.
///
/// A binary record starts with ``WireBinary/marker`` and a tag; the JSON of earlier versions
/// starts with `{`, so their logs still load.
enum RecordCodec {
    enum Tag: UInt8 {
        case outboxAdded = 1
        case outboxSettled = 2
        case inboxStarted = 3
        case inboxFinished = 4
        case outboxAcknowledged = 5
        case orderedWatermark = 6
        case orderedNextSequence = 7
        case boot = 8
        case inboxHorizon = 9
        case state = 10
    }

    /// Writes `record`'s bytes into `out` (a log frame's body, written in place).
    static func encode(_ record: DurableRecord, into out: inout some ByteSink) {
        out.byte(WireBinary.marker)
        switch record {
        case .outboxAdded(let entry):
            out.byte(Tag.outboxAdded.rawValue)
            out.string(entry.strategy.rawValue)
            out.int64(entry.retry.initialDelay.wholeMilliseconds)
            out.uint64(entry.retry.multiplier.bitPattern)
            out.int64(entry.retry.maximumDelay.wholeMilliseconds)
            out.byte(entry.retry.maximumAttempts == nil ? 0 : 1)
            if let attempts = entry.retry.maximumAttempts { out.int64(Int64(attempts)) }
            WireBinary.write(entry.request, into: &out)
        case .outboxSettled(let id, let response):
            out.byte(Tag.outboxSettled.rawValue)
            out.uuid(id)
            WireBinary.write(response, into: &out)
        case .inboxStarted(let start):
            out.byte(Tag.inboxStarted.rawValue)
            out.string(start.idempotencyKey)
            out.uuid(start.requestID)
            out.int64(start.deadline.milliseconds)
            out.byte(start.sequence == nil ? 0 : 1)
            if let sequence = start.sequence { out.uint64(sequence) }
        case .inboxFinished(let response, let deadline):
            out.byte(Tag.inboxFinished.rawValue)
            out.int64(deadline.milliseconds)
            WireBinary.write(response, into: &out)
        case .outboxAcknowledged(let ids):
            out.byte(Tag.outboxAcknowledged.rawValue)
            out.length(ids.count)
            for id in ids { out.uuid(id) }
        case .orderedWatermark(let value):
            out.byte(Tag.orderedWatermark.rawValue)
            out.uint64(value)
        case .orderedNextSequence(let value):
            out.byte(Tag.orderedNextSequence.rawValue)
            out.uint64(value)
        case .boot(let value):
            out.byte(Tag.boot.rawValue)
            out.uint64(value)
        case .inboxHorizon(let value):
            out.byte(Tag.inboxHorizon.rawValue)
            out.int64(value.milliseconds)
        case .state(let key, let entry):
            out.byte(Tag.state.rawValue)
            out.string(key)
            out.data(entry.value)
            out.uint64(entry.version.sequenceNumber)
            out.int64(entry.version.timestamp.milliseconds)
            out.string(entry.version.origin.rawValue)
            out.uuid(entry.version.updateID)
            out.uint64(entry.version.phoneCounter)
            out.uint64(entry.version.watchCounter)
        }
    }

    /// Decodes a record from its bytes, read where they are (a slice of the log's image).
    static func decode(_ bytes: ArraySlice<UInt8>, json: JSONDecoder) throws(WatchLinkError) -> DurableRecord {
        guard bytes.first == WireBinary.marker else {
            do { return try json.decode(DurableRecord.self, from: Data(bytes)) } catch {
                throw WatchLinkError(.storageFailed, "corrupt record: \(error)")
            }
        }
        return try bytes.withUnsafeBytes { bytes in Result { () throws(WatchLinkError) in try decodeBinary(bytes) } }.get()
    }

    /// Decodes a binary record from bytes lent for the call.
    private static func decodeBinary(_ bytes: UnsafeRawBufferPointer) throws(WatchLinkError) -> DurableRecord {
        var reader = ByteReader(bytes, offset: 1, scope: "record")
        let record: DurableRecord
        switch Tag(rawValue: try reader.byte("tag")) {
        case .outboxAdded?:
            let name = try reader.string("strategy")
            guard let strategy = DeliveryStrategy(rawValue: name) else { throw reader.failure("strategy", "unknown") }
            let initial = try reader.int64("retry")
            let multiplier = Double(bitPattern: try reader.uint64("retry"))
            let maximum = try reader.int64("retry")
            let attempts = try reader.byte("retry") == 0 ? nil : Int(try reader.int64("retry"))
            let retry = RetryPolicy(
                initialDelay: .milliseconds(initial), multiplier: multiplier, maximumDelay: .milliseconds(maximum),
                maximumAttempts: attempts)
            record = .outboxAdded(OutboxEntry(request: try WireBinary.readRequest(&reader), strategy: strategy, retry: retry))
        case .outboxSettled?:
            let id = try reader.uuid("id")
            record = .outboxSettled(id, try WireBinary.readResponse(&reader))
        case .inboxStarted?:
            let key = try reader.string("idem")
            let id = try reader.uuid("id")
            let deadline = WatchTimestamp(milliseconds: try reader.int64("deadline"))
            let sequence = try reader.byte("seq") == 0 ? nil : try reader.uint64("seq")
            record = .inboxStarted(InboxStart(idempotencyKey: key, requestID: id, deadline: deadline, sequence: sequence))
        case .inboxFinished?:
            let deadline = WatchTimestamp(milliseconds: try reader.int64("deadline"))
            record = .inboxFinished(try WireBinary.readResponse(&reader), deadline: deadline)
        case .outboxAcknowledged?:
            let count = try reader.count("ids", minimumSize: 16)
            var ids: [UUID] = []
            ids.reserveCapacity(count)
            for _ in 0..<count { ids.append(try reader.uuid("ids")) }
            record = .outboxAcknowledged(ids)
        case .orderedWatermark?:
            record = .orderedWatermark(try reader.uint64("watermark"))
        case .orderedNextSequence?:
            record = .orderedNextSequence(try reader.uint64("next"))
        case .boot?:
            record = .boot(try reader.uint64("boot"))
        case .inboxHorizon?:
            record = .inboxHorizon(WatchTimestamp(milliseconds: try reader.int64("horizon")))
        case .state?:
            let key = try reader.string("key")
            let value = try reader.data("value")
            let sequence = try reader.uint64("version.seq")
            let timestamp = WatchTimestamp(milliseconds: try reader.int64("version.at"))
            guard let origin = DeviceOrigin(rawValue: try reader.string("version.origin")) else {
                throw reader.failure("version.origin", "unknown device")
            }
            let version = StateVersion(
                sequenceNumber: sequence, timestamp: timestamp, origin: origin, updateID: try reader.uuid("version.id"),
                phoneCounter: try reader.uint64("version.p"), watchCounter: try reader.uint64("version.w"))
            record = .state(key: key, StateEntry(value: value, version: version))
        case nil:
            throw reader.failure("tag", "unknown record tag")
        }
        guard reader.isAtEnd else { throw reader.failure("end", "trailing bytes") }
        return record
    }
}
