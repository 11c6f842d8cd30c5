package import Foundation
package import PWAKitRetry

/// One entry of a device's durable log; replaying the log rebuilds the engine after a crash.
package enum DurableRecord: Sendable, Hashable, Codable {
    /// A request entered the outbox.
    case outboxAdded(OutboxEntry)
    /// A request left the outbox with this outcome.
    case outboxSettled(UUID, WireResponse)
    /// Requests left the outbox acknowledged: each succeeded with ``WireAcknowledgements/value``
    /// (one record for a group of them, see ``WireAcknowledgements``).
    case outboxAcknowledged([UUID])
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
    /// The latest deadline of a forgotten inbox entry: a request with a deadline no later than
    /// this is not run (answered `outcome_unknown`), whatever the clock says now (it may have moved back).
    case inboxHorizon(WatchTimestamp)
}

/// A request waiting in the outbox.
package struct OutboxEntry: Sendable, Hashable, Codable {
    /// The request envelope.
    package var request: WireRequest
    /// How it travels.
    package var strategy: DeliveryStrategy
    /// How it is retried.
    package var retry: RetryPolicy

    /// Creates an outbox entry.
    package init(request: WireRequest, strategy: DeliveryStrategy, retry: RetryPolicy) {
        self.request = request
        self.strategy = strategy
        self.retry = retry
    }
}

/// The durable mark written just before a handler runs.
package struct InboxStart: Sendable, Hashable, Codable {
    /// The request's idempotency key.
    package var idempotencyKey: String
    /// The request's id.
    package var requestID: UUID
    /// The request's deadline, after which the mark may be forgotten.
    package var deadline: WatchTimestamp
    /// The ordered-channel sequence, if the request is ordered.
    package var sequence: UInt64?
}
