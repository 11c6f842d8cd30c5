package import Foundation

/// Several successful answers whose value is the empty object, in one frame: a cumulative
/// acknowledgement.
///
/// A fire-and-forget request is answered with ``WatchAck``, whose encoding carries nothing but
/// "it ran". When a group of such answers is released by one durable sync, the receiver sends
/// them as one frame of request ids and idempotency keys instead of a response frame each, and the
/// sender settles the whole group with one record (``DurableRecord/outboxAcknowledged(_:)``).
/// Each entry stands for exactly the response it replaces: success, with ``value`` as its value.
package struct WireAcknowledgements: Hashable, Sendable, Codable {
    /// One acknowledged request.
    package struct Entry: Hashable, Sendable, Codable {
        /// The request answered.
        package var requestID: UUID
        /// The request's idempotency key.
        package var idempotencyKey: String

        /// Creates an entry.
        package init(requestID: UUID, idempotencyKey: String) {
            self.requestID = requestID
            self.idempotencyKey = idempotencyKey
        }

        enum CodingKeys: String, CodingKey { case requestID = "id", idempotencyKey = "idem" }
    }

    /// The acknowledged requests, in the order their answers were released.
    package var entries: [Entry]
    /// When the last of the answers was produced.
    package var createdAt: WatchTimestamp
    /// The responder's incarnation, as on a response.
    package var incarnation: LinkIncarnation?
    /// The responder's ordered floor as a sender, as on a response.
    package var floor: UInt64?

    /// Creates an acknowledgement frame's contents.
    package init(entries: [Entry], createdAt: WatchTimestamp, incarnation: LinkIncarnation? = nil, floor: UInt64? = nil) {
        self.entries = entries
        self.createdAt = createdAt
        self.incarnation = incarnation
        self.floor = floor
    }

    enum CodingKeys: String, CodingKey {
        case entries, createdAt = "at", incarnation = "from", floor
    }

    /// The value every acknowledged request answered with: ``WatchAck`` in ``WatchPayload``'s
    /// binary encoding. A response with another value (a `WatchAck` in JSON, answering a peer that
    /// sent JSON) travels as a response.
    package static let value: Data = {
        // NB: an empty struct's keyed container always encodes; failure is a programming error.
        do { return try WatchPayload.encode(WatchAck()) } catch { preconditionFailure("WatchAck does not encode: \(error)") }
    }()

    /// Whether `response` can travel as an entry: a success whose value is ``value``.
    package static func canCarry(_ response: WireResponse) -> Bool {
        response.error == nil && response.value == value
    }

    /// The response each entry stands for, stamped as the frame is.
    package var responses: [WireResponse] {
        entries.map { entry in
            var response = WireResponse(
                requestID: entry.requestID, idempotencyKey: entry.idempotencyKey, outcome: .success(Self.value),
                createdAt: createdAt)
            response.incarnation = incarnation
            response.floor = floor
            return response
        }
    }

    /// Checks what a decoder cannot, naming the first field at fault.
    func validate() throws(WatchLinkError) {
        guard !entries.isEmpty else {
            throw WatchLinkError(
                .invalidEnvelope, "an acknowledgement frame acknowledges at least one request",
                details: ["field": "acknowledgements.entries"])
        }
        for (index, entry) in entries.enumerated() where entry.idempotencyKey.isEmpty || entry.idempotencyKey.utf8.count > 128 {
            throw WatchLinkError(
                .invalidEnvelope, "idempotency key must be 1-128 bytes",
                details: ["field": "acknowledgements.entries[\(index)].idem"])
        }
    }
}
