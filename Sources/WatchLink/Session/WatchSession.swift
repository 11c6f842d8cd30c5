public import Foundation

/// A phone ↔ watch session with WatchConnectivity's semantics.
///
/// - `sendMessage`: only while ``isReachable``; ordered; not persisted; a failure after
///   hand-off is indistinguishable from "processed, reply lost".
/// - `transferUserInfo`: works while unreachable; FIFO; queued payloads survive restarts. A transfer
///   may carry a key: another under the same key, while the first has not yet been handed to the
///   counterpart, takes its place rather than queueing behind it
///   (see ``transferUserInfo(_:replacingQueued:)``).
/// - `updateApplicationContext`: latest value wins; the sent and received contexts persist.
/// - `transferFile`: works while unreachable; queued transfers survive restarts; the file and its
///   metadata arrive at the counterpart, whose delegate must copy the file before returning;
///   an outstanding transfer reports its progress and can be cancelled. Files are not ordered.
/// - Transfers before activation throw `not_activated`; oversized payloads throw `payload_too_large`.
public protocol WatchSession: AnyObject {
    /// The activation state.
    var activationState: SessionActivationState { get }
    /// Whether a live message can be sent now.
    var isReachable: Bool { get }
    /// The last context this side sent, as persisted by the session.
    var applicationContext: Data? { get }
    /// The last context received from the counterpart, as persisted by the session.
    var receivedApplicationContext: Data? { get }

    /// Starts activation; the delegate hears `sessionDidActivate` when it completes.
    func activate(delegate: any WatchSessionDelegate)
    /// Sends a live message.
    func sendMessage(_ data: Data) throws(WatchLinkError)
    /// Queues a user-info transfer.
    func transferUserInfo(_ data: Data) throws(WatchLinkError)
    /// Queues a user-info transfer under `key`. While a transfer queued earlier under the same key
    /// has not yet been handed to the counterpart, that one keeps its place and carries `data`
    /// instead (or, where the platform cannot change a queued transfer, stays as it is and `data`
    /// is dropped); else `data` is queued as by ``transferUserInfo(_:)``.
    ///
    /// A ``WatchConnection`` re-sends a request on the user-info channel when no answer came in
    /// time. Queued behind its earlier copies, every re-send would lengthen the queue, and a queue
    /// that takes longer to drain than the time between re-sends then only grows: every request
    /// waits behind copies of older ones until its deadline passes.
    func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError)
    /// Replaces the application context.
    func updateApplicationContext(_ data: Data) throws(WatchLinkError)
    /// Runs `body`, sending the live messages it sends on this thread together: in order, in as
    /// few writes as the transport can make, when `body` returns (or, if another writer holds the
    /// transport then, as soon as it lets go). A message sent this way counts as handed off once
    /// ``sendMessage(_:)`` returns; if the write then fails, it is lost as a message lost after
    /// hand-off is, with no error to the caller. Calls may nest (the outermost one sends).
    ///
    /// A ``WatchConnection`` sends the messages of a group of effects this way (the requests and
    /// answers a durable sync released), so they cost one write instead of one each.
    func sendingMessagesTogether(_ body: () -> Void)

    /// Queues the file at `url` with `metadata`; the delegate hears `sessionDidFinishFileTransfer` once.
    ///
    /// - Throws: `not_activated`; `invalid_argument` naming `fileName` or `metadata`;
    ///   `file_unreadable`, or `payload_too_large` naming `file` or `metadata`.
    func transferFile(_ url: URL, metadata: [String: String]) throws(WatchLinkError) -> FileTransfer
    /// File transfers not yet delivered (nor cancelled), oldest first.
    var outstandingFileTransfers: [FileTransfer] { get }
    /// The progress of an outstanding file transfer; `nil` once it finished or if unknown.
    func progress(ofFileTransfer id: UUID) -> FileTransferProgress?
    /// Cancels an outstanding file transfer; the delegate hears it finish with `cancelled`.
    ///
    /// A transfer whose last byte is already on its way may still be delivered.
    func cancelFileTransfer(_ id: UUID)

    /// Whether a delegate may call this session's send methods (`sendMessage`, `transferUserInfo`,
    /// `updateApplicationContext`) from within a callback.
    ///
    /// When it may, a ``WatchConnection`` handles data on the thread that delivers it and answers from
    /// there; a session that holds a lock while it calls its delegate says no, and the connection
    /// then takes its callbacks to another thread. `false` unless a session says otherwise.
    var allowsCallsFromCallbacks: Bool { get }
}

extension WatchSession {
    /// Queues `data` as ``transferUserInfo(_:)`` does, without looking for an earlier transfer:
    /// for sessions that keep no keys.
    public func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError) {
        try transferUserInfo(data)
    }

    /// `false`: callbacks are handled on another thread.
    public var allowsCallsFromCallbacks: Bool { false }

    /// Runs `body`; its messages are sent one by one, as they are sent.
    public func sendingMessagesTogether(_ body: () -> Void) { body() }

    /// Hands user info sent for `purpose` to the session: a request's copies under the request's
    /// id, so a re-send takes its queued copy's place (``transferUserInfo(_:replacingQueued:)``);
    /// anything else unkeyed.
    package func transferUserInfo(_ data: Data, for purpose: SendPurpose) throws(WatchLinkError) {
        if case .request(let id) = purpose {
            try transferUserInfo(data, replacingQueued: id)
        } else {
            try transferUserInfo(data)
        }
    }
}

/// Receives session callbacks, one at a time, possibly on a background thread.
public protocol WatchSessionDelegate: AnyObject, Sendable {
    /// Activation finished in `state`.
    func sessionDidActivate(_ state: SessionActivationState)
    /// Reachability changed.
    func sessionReachabilityDidChange(_ isReachable: Bool)
    /// Data arrived on `channel`.
    func sessionDidReceive(_ data: Data, on channel: SessionChannel)
    /// A file arrived; `file.url` is deleted when this call returns, so copy it first.
    ///
    /// Throwing refuses the file: the socket transport and the simulation deliver it again later;
    /// WatchConnectivity deletes it regardless.
    func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError)
    /// An outgoing file transfer finished: delivered (`error == nil`), cancelled, or refused by the counterpart.
    func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?)
    /// An incoming file was refused before delivery (a malformed descriptor, a hostile name, over the limit).
    func sessionDidRejectFile(_ error: WatchLinkError)
}

extension WatchSessionDelegate {
    /// Ignores the file.
    public func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError) {}
    /// Ignores the outcome.
    public func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?) {}
    /// Ignores the refusal.
    public func sessionDidRejectFile(_ error: WatchLinkError) {}
}
