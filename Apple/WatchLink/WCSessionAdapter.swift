#if canImport(WatchConnectivity)
public import Foundation
public import WatchConnectivity
import Synchronization
public import WatchLink

/// The ``WatchSession`` over Apple's `WCSession`: a thin, one-to-one mapping.
///
/// Data travels as `Data` under one dictionary key, because `sendMessageData`,
/// `transferUserInfo` and `updateApplicationContext` differ in what they accept.
public final class WCSessionAdapter: NSObject, WatchSession, WCSessionDelegate, Sendable {
    static let key = "watchlink"
    let session: WCSession
    let delegate = Mutex<(any WatchSessionDelegate)?>(nil)

    /// Wraps `session` (normally `WCSession.default`).
    public init(session: WCSession = .default) {
        self.session = session
        super.init()
    }

    /// The session's activation state.
    public var activationState: SessionActivationState {
        switch session.activationState {
        case .activated: .activated
        case .inactive: .inactive
        default: .notActivated
        }
    }

    /// `WCSession.isReachable`.
    public var isReachable: Bool { session.isReachable }
    /// The last context sent.
    public var applicationContext: Data? { session.applicationContext[Self.key] as? Data }
    /// The last context received.
    public var receivedApplicationContext: Data? { session.receivedApplicationContext[Self.key] as? Data }

    /// Sets the delegate and activates `WCSession`.
    public func activate(delegate: any WatchSessionDelegate) {
        self.delegate.withLock { $0 = delegate }
        session.delegate = self
        session.activate()
    }

    /// `sendMessageData`; a delivery error is reported as unreachability.
    public func sendMessage(_ data: Data) throws(WatchLinkError) {
        try check(data, .message)
        guard session.isReachable else { throw WatchLinkError(.notReachable, "counterpart not reachable") }
        session.sendMessageData(data, replyHandler: nil) { [weak self] _ in
            self?.delegate.withLock { $0 }?.sessionReachabilityDidChange(self?.session.isReachable ?? false)
        }
    }

    /// `transferUserInfo`.
    public func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try check(data, .userInfo)
        session.transferUserInfo([Self.key: data])
    }

    /// `updateApplicationContext`.
    public func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try check(data, .applicationContext)
        do { try session.updateApplicationContext([Self.key: data]) } catch {
            throw WatchLinkError(.transportFailed, error.localizedDescription)
        }
    }

    private func check(_ data: Data, _ channel: SessionChannel) throws(WatchLinkError) {
        guard session.activationState == .activated else { throw WatchLinkError(.notActivated, "session not activated") }
        try SessionLimits.check(data.count, on: channel)
    }

    private var target: (any WatchSessionDelegate)? { delegate.withLock { $0 } }

    /// Forwards activation.
    public func session(_ session: WCSession, activationDidCompleteWith state: WCSessionActivationState, error: (any Error)?) {
        target?.sessionDidActivate(state == .activated ? .activated : .notActivated)
        target?.sessionReachabilityDidChange(session.isReachable)
    }

    /// Forwards reachability.
    public func sessionReachabilityDidChange(_ session: WCSession) { target?.sessionReachabilityDidChange(session.isReachable) }

    /// Forwards a live message.
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data) {
        target?.sessionDidReceive(messageData, on: .message)
    }

    /// Forwards user info.
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
        if let data = userInfo[Self.key] as? Data { target?.sessionDidReceive(data, on: .userInfo) }
    }

    /// Forwards an application context.
    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        if let data = applicationContext[Self.key] as? Data { target?.sessionDidReceive(data, on: .applicationContext) }
    }

    #if os(iOS)
    /// The session became inactive (the user is switching watches).
    public func sessionDidBecomeInactive(_ session: WCSession) { target?.sessionReachabilityDidChange(false) }

    /// The session deactivated; reactivate for the new watch.
    public func sessionDidDeactivate(_ session: WCSession) { session.activate() }
    #endif
}
#endif
