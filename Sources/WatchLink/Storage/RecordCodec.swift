import Foundation
import PWAKitRetry

/// Encodes log records for ``FileStore``: the frequent request, settlement and inbox records in the binary
/// layout of ``WireBinary``, the rare ones (counters, shared state) as sorted-key JSON.
///
/// A binary record starts with ``WireBinary/marker`` and a tag; JSON starts with `{`, so old logs
/// still load.
enum RecordCodec {
    enum Tag: UInt8 {
        case outboxAdded = 1
        case outboxSettled = 2
        case inboxStarted = 3
        case inboxFinished = 4
        case outboxAcknowledged = 5
    }

    static func encode(_ record: DurableRecord, json: JSONEncoder) throws(WatchLinkError) -> [UInt8] {
        var out = ByteWriter(capacity: 256)
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
        case .orderedWatermark, .orderedNextSequence, .state, .boot, .inboxHorizon:
            do { return [UInt8](try json.encode(record)) } catch {
                throw WatchLinkError(.storageFailed, "cannot encode record: \(error)")
            }
        }
        return out.bytes
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
            // NB: the count is checked against the bytes left before anything is reserved.
            let count = try reader.length("ids")
            var ids: [UUID] = []
            ids.reserveCapacity(count)
            for _ in 0..<count { ids.append(try reader.uuid("ids")) }
            record = .outboxAcknowledged(ids)
        case nil:
            throw reader.failure("tag", "unknown record tag")
        }
        guard reader.isAtEnd else { throw reader.failure("end", "trailing bytes") }
        return record
    }
}
