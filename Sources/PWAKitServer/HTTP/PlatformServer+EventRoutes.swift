import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI
import PWAKitErrors

extension PlatformServer {
    func addEventRoutes(to table: RouteTable) {
        table.add(.post, "/v1/events") { request, _ in
            let caller = try await authenticate(request)
            let batch = try await RequestReader.json(
                EventBatchBody.self, from: request, limit: configuration.maximumEventBody)
            return try JSONResponse.make(try await storeEvents(batch, userId: caller.userId))
        }
    }

    /// Stores the valid events of a batch once each, counts its drop report once, and accounts for
    /// every event: stored now, stored before, or refused with the field at fault.
    func storeEvents(_ batch: EventBatchBody, userId: String) async throws -> EventBatchResponse {
        guard batch.events.count <= EventRules.maximumBatch else {
            throw APIError(
                .contentTooLarge, .payloadTooLarge, "a batch holds at most \(EventRules.maximumBatch) events", field: "events")
        }
        let now = environment.now()
        if let dropped = batch.dropped {
            guard EventRules.isCanonicalUUID(dropped.id) else {
                throw APIError(.badRequest, .invalidRequest, "must be a lowercase UUID", field: "dropped.id")
            }
            guard (1...1_000_000_000).contains(dropped.count) else {
                throw APIError(.badRequest, .invalidRequest, "must be between 1 and 1000000000", field: "dropped.count")
            }
        }
        var rejected: [RejectedEvent] = []
        var records: [String: EventRecord] = [:]
        var valid = 0
        for (index, slot) in batch.events.enumerated() {
            let prefix = "events[\(index)]"
            switch slot.event {
            case .failure(let error):
                let path = error.fieldPath
                rejected.append(
                    RejectedEvent(
                        index: index, id: slot.id ?? "", field: path.hasPrefix(prefix) ? path : prefix,
                        message: error.fieldProblem))
            case .success(let event):
                if let problem = EventRules.problem(with: event, at: prefix) {
                    rejected.append(RejectedEvent(index: index, id: event.id, field: problem.field, message: problem.message))
                    continue
                }
                valid += 1
                // NB: an id twice in one batch is stored once; the second counts as a duplicate.
                if records[event.id] == nil {
                    records[event.id] = EventRecord(
                        id: event.id, userId: userId, name: event.name, source: event.source, occurredAt: event.timestamp,
                        receivedAt: now, properties: try Self.propertiesJSON(event.properties))
                }
            }
        }
        let inserted = try await storage.insertEvents(records.values.sorted { $0.id < $1.id })
        if let dropped = batch.dropped {
            _ = try await storage.recordEventDrops(reportId: dropped.id, userId: userId, dropped: dropped.count, at: now)
        }
        return EventBatchResponse(accepted: inserted.count, duplicates: valid - inserted.count, rejected: rejected)
    }

    static func propertiesJSON(_ properties: [String: ScalarValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(properties), as: UTF8.self)
    }
}

/// `POST /v1/events` as the server reads it: each event decoded on its own, so one event of the
/// wrong shape is refused alone rather than failing the batch.
struct EventBatchBody: Decodable {
    /// One element of `events`: the event, or why it could not be read (with its id when that much was readable).
    struct Slot: Decodable {
        let event: Result<EventPayload, DecodingError>
        let id: String?

        private enum Keys: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            do {
                event = .success(try EventPayload(from: decoder))
            } catch let error as DecodingError {
                event = .failure(error)
            }
            id = try? decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .id)
        }
    }

    let events: [Slot]
    let dropped: DroppedEvents?
}
