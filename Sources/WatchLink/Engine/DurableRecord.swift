public import Foundation

/// One entry of a device's durable log; replaying the log rebuilds the engine after a crash.
public enum DurableRecord: Sendable, Hashable, Codable {
    /// A request entered the outbox.
    case outboxAdded(OutboxEntry)
    /// A request left the outbox with this outcome.
    case outboxSettled(UUID, WireResponse)
    /// The handler for an inbound request is about to run.
    case inboxStarted(InboxStart)
    /// The handler's result, saved so a duplicate is answered without running it again.
    case inboxFinished(WireResponse, deadline: WatchTimestamp)
    /// Every ordered inbound request up to this sequence is settled.
    case orderedWatermark(UInt64)
    /// The next sequence number of the outbound ordered channel.
    case orderedNextSequence(UInt64)
    /// A shared-state value.
    case state(key: String, StateEntry)
    /// The engine recovered for the n-th time; the count makes every incarnation distinct.
    case boot(UInt64)
}

/// A request waiting in the outbox.
public struct OutboxEntry: Sendable, Hashable, Codable {
    /// The request envelope.
    public var request: WireRequest
    /// How it travels.
    public var strategy: DeliveryStrategy
    /// How it is retried.
    public var retry: RetryPolicy

    /// Creates an outbox entry.
    public init(request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy) {
        self.request = request
        self.strategy = strategy
        self.retry = retry
    }
}

/// The durable mark written just before a handler runs.
public struct InboxStart: Sendable, Hashable, Codable {
    /// The request's idempotency key.
    public var idempotencyKey: String
    /// The request's id.
    public var requestID: UUID
    /// The request's deadline, after which the mark may be forgotten.
    public var deadline: WatchTimestamp
    /// The ordered-channel sequence, if the request is ordered.
    public var sequence: UInt64?
}

extension RetryPolicy: Codable {
    enum CodingKeys: String, CodingKey { case initialDelay, multiplier, maximumDelay, maximumAttempts }

    /// Decodes a policy; delays are whole milliseconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            initialDelay: .milliseconds(try c.decode(Int64.self, forKey: .initialDelay)),
            multiplier: try c.decode(Double.self, forKey: .multiplier),
            maximumDelay: .milliseconds(try c.decode(Int64.self, forKey: .maximumDelay)),
            maximumAttempts: try c.decodeIfPresent(Int.self, forKey: .maximumAttempts))
    }

    /// Encodes a policy; delays are whole milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(initialDelay.wholeMilliseconds, forKey: .initialDelay)
        try c.encode(multiplier, forKey: .multiplier)
        try c.encode(maximumDelay.wholeMilliseconds, forKey: .maximumDelay)
        try c.encodeIfPresent(maximumAttempts, forKey: .maximumAttempts)
    }
}
