package import Foundation

/// An effect the ``LinkEngine`` asks its shell to perform, in order.
package enum LinkAction: Sendable, Hashable {
    /// Append a record to the durable log (not yet synced).
    // NB: this case and `event` are boxed: their values are 200 bytes, four times any other case's,
    // and every action in a batch would be as large (the engine alone took about 6% less CPU).
    indirect case persist(DurableRecord)
    /// Make every appended record durable before performing any later action.
    case sync
    /// Atomically replace the durable log (write, sync, rename) with ``LinkEngine/snapshot(now:)``
    /// taken when this is performed: every record appended before it is then in the snapshot, and
    /// the engine builds no snapshot its shell would not write. The snapshot is of the engine's
    /// state then, so it may also hold what later actions of the same batch append again (the
    /// recovery's compaction comes before a received context's effects); replaying a record twice
    /// leaves the same state.
    case compact
    /// Hand data to the session on a channel.
    case send(SessionChannel, Data, purpose: SendPurpose)
    /// Answer with `response`, a success that ``WireAcknowledgements`` can carry, on a channel:
    /// the shell passes its effects through ``gatheringAcknowledgements(_:)``, which turns the
    /// acknowledgements among them into sends, several of one channel into one frame.
    // NB: boxed, as a response is several times the size of any other case's value.
    indirect case acknowledge(SessionChannel, WireResponse)
    /// Run the handler for an inbound request and report back with `handlerFinished`.
    case run(InboundCall)
    /// The request is accepted: durable (if durable) and owned by the outbox.
    case accepted(UUID)
    /// The request is settled with this outcome; it is reported exactly once per process.
    case complete(UUID, Result<Data, WatchLinkError>)
    /// A shared-state value changed (local update, remote update or conflict resolution).
    case stateChanged(key: String, StateEntry)
    /// A diagnostic event.
    indirect case event(LinkEvent)

    /// Whether this is a record, a sync or a compaction: what group commit moves and waits for.
    package var touchesStorage: Bool {
        // NB: every case named, so a new kind of action must be placed on one side or the other.
        switch self {
        case .persist, .sync, .compact: true
        case .send, .acknowledge, .run, .accepted, .complete, .stateChanged, .event: false
        }
    }
}

/// Why data is being sent, so a failed hand-off can be routed back.
package enum SendPurpose: Sendable, Hashable {
    /// A request from the outbox.
    case request(UUID)
    /// A response to a counterpart's request.
    case response
    /// The application context.
    case context
}

/// An inbound request the shell must execute.
package struct InboundCall: Sendable, Hashable {
    /// The handler's type key.
    package var typeKey: WatchTypeKey
    /// The encoded request value.
    package var payload: Data
    /// The request's id.
    package var requestID: UUID
    /// The key the inbox deduplicates on; pass it back in `handlerFinished`.
    package var idempotencyKey: String
    /// Whether the request's inbox entry is on disk, so its result must be synced before the answer.
    package var isDurable: Bool
}

extension Array where Element == LinkAction {
    /// Appends `actions`; into an empty array, takes them as they are (appending would copy them
    /// into a new buffer).
    mutating func append(taking actions: [LinkAction]) {
        if isEmpty { self = actions } else { self += actions }
    }
}
