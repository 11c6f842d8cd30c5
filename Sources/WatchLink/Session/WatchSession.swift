public import Foundation

/// A phone ↔ watch session with WatchConnectivity's semantics.
///
/// - `sendMessage`: only while ``isReachable``; ordered; not persisted; a failure after
///   hand-off is indistinguishable from "processed, reply lost".
/// - `transferUserInfo`: works while unreachable; FIFO; queued payloads survive restarts.
/// - `updateApplicationContext`: latest value wins; the sent and received contexts persist.
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
    /// Replaces the application context.
    func updateApplicationContext(_ data: Data) throws(WatchLinkError)
}

/// Receives session callbacks, one at a time, possibly on a background thread.
public protocol WatchSessionDelegate: AnyObject, Sendable {
    /// Activation finished in `state`.
    func sessionDidActivate(_ state: SessionActivationState)
    /// Reachability changed.
    func sessionReachabilityDidChange(_ isReachable: Bool)
    /// Data arrived on `channel`.
    func sessionDidReceive(_ data: Data, on channel: SessionChannel)
}
