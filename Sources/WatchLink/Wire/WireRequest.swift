package import Foundation

/// The envelope a request travels in.
package struct WireRequest: Hashable, Sendable, Codable {
    /// The stable key of the request's type.
    package var typeKey: WatchTypeKey
    /// The JSON-encoded request value.
    package var payload: Data
    /// Correlates the response with this request.
    package var requestID: UUID
    /// The key the receiver deduplicates on; the request id unless the caller chose one.
    package var idempotencyKey: String
    /// Whether the caller awaits only delivery, not a value.
    package var isFireAndForget: Bool
    /// Whether the request is kept on disk by both sides until answered.
    package var isDurable: Bool
    /// When the caller created the request.
    package var createdAt: WatchTimestamp
    /// After this instant the sender stops waiting and the receiver refuses to start the handler.
    package var deadline: WatchTimestamp
    /// The position in the sender's ordered channel, for requests whose handlers must run in order.
    package var sequence: UInt64?
    /// Every ordered request of the sender below this sequence is settled there and may be skipped.
    ///
    /// Carried by every request, ordered or not, so the receiver learns of gaps promptly.
    package var floor: UInt64?
    /// How many times the sender has transmitted this request before.
    package var attempt: Int
    /// For a non-durable request: the receiver incarnation it is addressed to (`nil` until one is known).
    package var target: LinkIncarnation?
    /// Whether the sender pinned the request to the ordered `message` channel (`messageOnly`), so the
    /// receiver runs its handler after those of earlier such requests, one at a time.
    package var runsInArrivalOrder: Bool

    /// Creates a request envelope.
    package init(
        typeKey: WatchTypeKey, payload: Data, requestID: UUID, idempotencyKey: String? = nil,
        isFireAndForget: Bool = false, isDurable: Bool = true, createdAt: WatchTimestamp, deadline: WatchTimestamp,
        sequence: UInt64? = nil, floor: UInt64? = nil, attempt: Int = 0, target: LinkIncarnation? = nil,
        runsInArrivalOrder: Bool = false
    ) {
        self.typeKey = typeKey
        self.payload = payload
        self.requestID = requestID
        self.idempotencyKey = idempotencyKey ?? requestID.text
        self.isFireAndForget = isFireAndForget
        self.isDurable = isDurable
        self.createdAt = createdAt
        self.deadline = deadline
        self.sequence = sequence
        self.floor = floor
        self.attempt = attempt
        self.target = target
        self.runsInArrivalOrder = runsInArrivalOrder
    }

    enum CodingKeys: String, CodingKey {
        case typeKey = "type", payload, requestID = "id", idempotencyKey = "idem", isFireAndForget = "ff"
        case isDurable = "durable", createdAt = "at", deadline, sequence = "seq", floor, attempt
        case target = "to", runsInArrivalOrder = "serial"
    }

    /// Decodes a request; `serial` is optional (absent means `false`).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        typeKey = try c.decode(WatchTypeKey.self, forKey: .typeKey)
        payload = try c.decode(Data.self, forKey: .payload)
        requestID = try c.decode(UUID.self, forKey: .requestID)
        idempotencyKey = try c.decode(String.self, forKey: .idempotencyKey)
        isFireAndForget = try c.decode(Bool.self, forKey: .isFireAndForget)
        isDurable = try c.decode(Bool.self, forKey: .isDurable)
        createdAt = try c.decode(WatchTimestamp.self, forKey: .createdAt)
        deadline = try c.decode(WatchTimestamp.self, forKey: .deadline)
        sequence = try c.decodeIfPresent(UInt64.self, forKey: .sequence)
        floor = try c.decodeIfPresent(UInt64.self, forKey: .floor)
        attempt = try c.decode(Int.self, forKey: .attempt)
        target = try c.decodeIfPresent(LinkIncarnation.self, forKey: .target)
        runsInArrivalOrder = try c.decodeIfPresent(Bool.self, forKey: .runsInArrivalOrder) ?? false
    }

    /// Checks the fields a decoder cannot check, naming the first field at fault.
    func validate() throws(WatchLinkError) {
        do { try typeKey.validate() } catch {
            throw WatchLinkError(error.code, error.message, details: ["field": "request.type"])
        }
        if idempotencyKey.isEmpty || idempotencyKey.utf8.count > 128 {
            throw WatchLinkError(.invalidEnvelope, "idempotency key must be 1-128 bytes", details: ["field": "request.idem"])
        }
        if deadline < createdAt {
            throw WatchLinkError(.invalidEnvelope, "deadline precedes creation", details: ["field": "request.deadline"])
        }
        if attempt < 0 {
            throw WatchLinkError(.invalidEnvelope, "attempt must not be negative", details: ["field": "request.attempt"])
        }
        if let floor, let sequence, floor > sequence {
            throw WatchLinkError(.invalidEnvelope, "floor above the request's own sequence", details: ["field": "request.floor"])
        }
    }
}
