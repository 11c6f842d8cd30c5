import Foundation

/// One analytics event as recorded on a device and sent in `POST /v1/events`: what happened, when,
/// where it was recorded, and a few flat properties. Its ``id`` is the key the server stores it
/// once by, so a batch sent twice stores nothing twice.
public struct EventPayload: Codable, Hashable, Sendable {
    /// The event's identity: a lowercase UUID (version 7, time-ordered, when the platform made it).
    public var id: String
    /// What happened: `push_permission_pre_prompt_accepted` (see ``EventRules``).
    public var name: String
    /// When it happened, in milliseconds since 1970.
    public var timestamp: Int64
    /// Which process recorded it: `app`, `share`, `cli`, … (see ``EventRules``).
    public var source: String
    /// Flat properties: strings, numbers and booleans.
    public var properties: [String: ScalarValue]

    /// Creates an event.
    public init(id: String, name: String, timestamp: Int64, source: String, properties: [String: ScalarValue] = [:]) {
        self.id = id
        self.name = name
        self.timestamp = timestamp
        self.source = source
        self.properties = properties
    }
}

/// The body of `POST /v1/events`.
public struct EventBatchRequest: Codable, Hashable, Sendable {
    /// The events, at most ``EventRules/maximumBatch``.
    public var events: [EventPayload]
    /// Events the sender's buffer dropped (it was full, or an event could not be read) and has not
    /// reported yet, so the loss is counted where it is seen.
    public var dropped: DroppedEvents?

    /// Creates a batch.
    public init(events: [EventPayload], dropped: DroppedEvents? = nil) {
        self.events = events
        self.dropped = dropped
    }
}

/// A count of events a buffer dropped, under an id the server counts it once by (a batch sent
/// again reports nothing twice).
public struct DroppedEvents: Codable, Hashable, Sendable {
    /// The report's id: a lowercase UUID.
    public var id: String
    /// How many events were dropped, at least 1.
    public var count: Int

    /// Creates a report.
    public init(id: String, count: Int) {
        self.id = id
        self.count = count
    }
}

/// The answer to `POST /v1/events`: every event of the batch is accounted for, as stored now,
/// stored before (a batch sent again), or refused with the field at fault. The sender deletes all
/// three kinds: sending a refused event again cannot help.
public struct EventBatchResponse: Codable, Hashable, Sendable {
    /// Events stored by this request.
    public var accepted: Int
    /// Events the server already had (by id).
    public var duplicates: Int
    /// Events refused, with why.
    public var rejected: [RejectedEvent]

    /// Creates an answer.
    public init(accepted: Int, duplicates: Int, rejected: [RejectedEvent]) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
    }
}

/// An event the server refused.
public struct RejectedEvent: Codable, Hashable, Sendable {
    /// Its position in the batch.
    public var index: Int
    /// Its id, as sent.
    public var id: String
    /// The field at fault (`events[3].name`).
    public var field: String
    /// Why.
    public var message: String

    /// Creates a refusal.
    public init(index: Int, id: String, field: String, message: String) {
        self.index = index
        self.id = id
        self.field = field
        self.message = message
    }
}
