public import Foundation

/// An effect the ``LinkEngine`` asks its shell to perform, in order.
public enum LinkAction: Sendable, Hashable {
    /// Append a record to the durable log (not yet synced).
    case persist(DurableRecord)
    /// Make every appended record durable before performing any later action.
    case sync
    /// Atomically replace the durable log with these records (write, sync, rename).
    case compact([DurableRecord])
    /// Hand data to the session on a channel.
    case send(SessionChannel, Data, purpose: SendPurpose)
    /// Run the handler for an inbound request and report back with `handlerFinished`.
    case run(InboundCall)
    /// The request is accepted: durable (if durable) and owned by the outbox.
    case accepted(UUID)
    /// The request is settled with this outcome; it is reported exactly once per process.
    case complete(UUID, Result<Data, WatchLinkError>)
    /// A shared-state value changed (local update, remote update or conflict resolution).
    case stateChanged(key: String, StateEntry)
    /// A diagnostic event.
    case event(LinkEvent)
}

/// Why data is being sent, so a failed hand-off can be routed back.
public enum SendPurpose: Sendable, Hashable {
    /// A request from the outbox.
    case request(UUID)
    /// A response to a counterpart's request.
    case response
    /// The application context.
    case context
}

/// An inbound request the shell must execute.
public struct InboundCall: Sendable, Hashable {
    /// The handler's type key.
    public var typeKey: WatchTypeKey
    /// The encoded request value.
    public var payload: Data
    /// The request's id.
    public var requestID: UUID
    /// The key the inbox deduplicates on; pass it back in `handlerFinished`.
    public var idempotencyKey: String
    /// Whether the request's inbox entry is on disk, so its result must be synced before the answer.
    public var isDurable: Bool
}

/// A diagnostic event, for logs and dashboards.
public enum LinkEvent: Sendable, Hashable {
    /// A request was accepted into the outbox.
    case requestAccepted(UUID)
    /// A request was settled; `nil` code means success.
    case requestSettled(UUID, WatchLinkError.Code?)
    /// A request will be retransmitted after `delay`.
    case retryScheduled(UUID, attempt: Int, delay: Duration)
    /// The outbox was full; its oldest request was dropped.
    case outboxOverflow(UUID)
    /// The link's health changed.
    case healthChanged(LinkHealth)
    /// A request was delivered again and answered from the inbox without running its handler.
    case duplicateSuppressed(idempotencyKey: String)
    /// A request was found started but unfinished after a restart and answered `outcome_unknown`.
    case outcomeUnknown(idempotencyKey: String)
    /// Concurrent shared-state updates were reconciled.
    case conflictResolved(key: String)
    /// A frame could not be decoded.
    case invalidFrame(WatchLinkError)
    /// Activation completed.
    case activated
    /// Reachability changed.
    case reachabilityChanged(Bool)
    /// The answer to a request its caller had cancelled after it was sent arrived, and was dropped.
    case lateResponseDropped(UUID)
    /// A file from the counterpart was copied into the file inbox.
    case fileReceived(FileTransfer)
    /// One of this device's file transfers finished; `nil` code means delivered.
    case fileTransferFinished(UUID, WatchLinkError.Code?)
    /// A file from the counterpart was refused (malformed, hostile or not storable).
    case fileRejected(WatchLinkError)
}
