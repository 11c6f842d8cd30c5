public import Foundation
import Synchronization

/// A live in-process pair of sessions with WatchConnectivity's semantics and no faults.
///
/// For tests of ``WatchConnection`` and for previews. Data is delivered immediately; user
/// info and files queued while the counterpart is not activated (or the link is down) are delivered,
/// in order, when it activates (or the link comes back), and so is the latest context sent
/// meanwhile; a received file is a temporary copy that is deleted when the delegate returns.
/// Delegate callbacks are made while the pair's lock is held, one at a time, so a delegate
/// must not call back into the session synchronously: ``allowsCallsFromCallbacks`` is `false`, and
/// a ``WatchConnection`` handles this session's callbacks on another thread.
public final class InMemorySession: WatchSession, Sendable {
    struct PairState {
        var delegates: [DeviceOrigin: any WatchSessionDelegate] = [:]
        var activated: Set<DeviceOrigin> = []
        var linkUp = true
        /// User info waiting for its receiver, by receiver, oldest first, with the key it was queued under.
        var queuedUserInfo: [DeviceOrigin: [(key: UUID?, data: Data)]] = [:]
        var sent: [DeviceOrigin: Data] = [:]
        var received: [DeviceOrigin: Data] = [:]
        /// Sides whose latest received context has not been handed to their delegate yet.
        var contextPending: Set<DeviceOrigin> = []
        var lastReachable: [DeviceOrigin: Bool] = [:]
        /// File transfers waiting for their receiver, by receiver, oldest first.
        var queuedFiles: [DeviceOrigin: [(FileTransfer, Data)]] = [:]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("watchlink-pair-\(UUID().uuidString)")

        func reachable(_ side: DeviceOrigin) -> Bool {
            linkUp && activated.contains(side) && activated.contains(side.counterpart)
        }

        mutating func notifyReachability() {
            for side in [DeviceOrigin.phone, .watch] where activated.contains(side) {
                let now = reachable(side)
                if lastReachable[side] != now {
                    lastReachable[side] = now
                    delegates[side]?.sessionReachabilityDidChange(now)
                }
            }
            for side in [DeviceOrigin.phone, .watch] { deliverQueued(to: side) }
        }

        /// Delivers what waits for `target` — user info in order, the latest context, files — if it
        /// is activated and the link is up.
        ///
        /// Files are retried only when asked (`files`): a file the delegate refused is not offered
        /// again on every other transfer.
        mutating func deliverQueued(to target: DeviceOrigin, files: Bool = true) {
            guard linkUp, activated.contains(target), let delegate = delegates[target] else { return }
            let userInfo = queuedUserInfo[target] ?? []
            queuedUserInfo[target] = []
            for item in userInfo { delegate.sessionDidReceive(item.data, on: .userInfo) }
            if contextPending.remove(target) != nil, let context = received[target] {
                delegate.sessionDidReceive(context, on: .applicationContext)
            }
            if files { deliverFiles(to: target) }
        }

        /// Delivers the files queued for `target` if it is activated and the link is up; a file its
        /// delegate refuses stays queued.
        mutating func deliverFiles(to target: DeviceOrigin) {
            guard linkUp, activated.contains(target), let delegate = delegates[target] else { return }
            var kept: [(FileTransfer, Data)] = []
            for (transfer, data) in queuedFiles[target] ?? [] {
                do throws(WatchLinkError) {
                    try ReceivedFile.handOver(data, of: transfer, under: scratch) { (file) throws(WatchLinkError) in
                        try delegate.sessionDidReceiveFile(file)
                    }
                    delegates[target.counterpart]?.sessionDidFinishFileTransfer(transfer, error: nil)
                } catch {
                    kept.append((transfer, data))
                }
            }
            queuedFiles[target] = kept
        }
    }

    final class Pair: Sendable {
        let state = Mutex(PairState())

        deinit {
            let scratch = state.withLock { $0.scratch }
            try? FileManager.default.removeItem(at: scratch)
        }
    }

    /// Which side this session is.
    public let side: DeviceOrigin
    let pair: Pair

    init(side: DeviceOrigin, pair: Pair) {
        self.side = side
        self.pair = pair
    }

    /// Creates a connected phone and watch session.
    public static func makePair() -> (phone: InMemorySession, watch: InMemorySession) {
        let pair = Pair()
        return (InMemorySession(side: .phone, pair: pair), InMemorySession(side: .watch, pair: pair))
    }

    /// Whether this side has activated.
    public var activationState: SessionActivationState {
        pair.state.withLock { $0.activated.contains(side) ? .activated : .notActivated }
    }

    /// Whether both sides are activated and the link is up.
    public var isReachable: Bool { pair.state.withLock { $0.reachable(side) } }

    /// The last context this side sent.
    public var applicationContext: Data? { pair.state.withLock { $0.sent[side] } }

    /// The last context this side received.
    public var receivedApplicationContext: Data? { pair.state.withLock { $0.received[side] } }

    /// Activates immediately and, if the link is up, delivers what was queued for this side.
    public func activate(delegate: any WatchSessionDelegate) {
        let side = self.side
        pair.state.withLock { state in
            state.delegates[side] = delegate
            state.activated.insert(side)
            state.delegates[side]?.sessionDidActivate(.activated)
            state.notifyReachability()
        }
    }

    /// Deactivates this side, as when its app terminates; queued transfers wait for it.
    public func deactivate() {
        pair.state.withLock { state in
            state.activated.remove(side)
            state.delegates[side] = nil
            state.lastReachable[side] = nil
            state.notifyReachability()
        }
    }

    /// Takes the link down or up.
    public func setLinkUp(_ up: Bool) {
        pair.state.withLock { state in
            state.linkUp = up
            state.notifyReachability()
        }
    }

    /// Delivers a live message; throws `not_reachable` unless reachable.
    public func sendMessage(_ data: Data) throws(WatchLinkError) {
        try pair.state.withLock { (state) throws(WatchLinkError) in
            try precheck(state, data, .message)
            guard state.reachable(side) else { throw WatchLinkError(.notReachable, "counterpart not reachable") }
            state.delegates[side.counterpart]?.sessionDidReceive(data, on: .message)
        }
    }

    /// Delivers user info now, after any queued before it, or queues it until the counterpart is
    /// activated and the link is up.
    public func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try pair.state.withLock { (state) throws(WatchLinkError) in
            try precheck(state, data, .userInfo)
            state.queuedUserInfo[side.counterpart, default: []].append((nil, data))
            state.deliverQueued(to: side.counterpart, files: false)
        }
    }

    /// Delivers user info now, after any queued before it, or queues it until the counterpart is
    /// activated and the link is up; a transfer still queued under `key` carries `data` instead.
    public func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError) {
        try pair.state.withLock { (state) throws(WatchLinkError) in
            try precheck(state, data, .userInfo)
            let target = side.counterpart
            if let index = state.queuedUserInfo[target]?.firstIndex(where: { $0.key == key }) {
                state.queuedUserInfo[target]![index].data = data
            } else {
                state.queuedUserInfo[target, default: []].append((key, data))
            }
            state.deliverQueued(to: target, files: false)
        }
    }

    /// Replaces the context and delivers it now, or — only the latest — once the counterpart is
    /// activated and the link is up.
    public func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try pair.state.withLock { (state) throws(WatchLinkError) in
            try precheck(state, data, .applicationContext)
            state.sent[side] = data
            state.received[side.counterpart] = data
            state.contextPending.insert(side.counterpart)
            state.deliverQueued(to: side.counterpart, files: false)
        }
    }

    /// Reads the file now, then delivers it, or queues it until the counterpart is activated and the link is up.
    public func transferFile(_ url: URL, metadata: [String: String]) throws(WatchLinkError) -> FileTransfer {
        guard activationState == .activated else { throw WatchLinkError(.notActivated, "session not activated") }
        let (transfer, data) = try FileTransfer.readAll(url, metadata: metadata, id: UUID())
        let target = side.counterpart
        pair.state.withLock { state in
            state.queuedFiles[target, default: []].append((transfer, data))
            state.deliverQueued(to: target)
        }
        return transfer
    }

    /// File transfers from this side not yet delivered.
    public var outstandingFileTransfers: [FileTransfer] {
        pair.state.withLock { $0.queuedFiles[side.counterpart]?.map(\.0) ?? [] }
    }

    /// Nothing of a queued file has moved yet; `nil` once it was delivered.
    public func progress(ofFileTransfer id: UUID) -> FileTransferProgress? {
        outstandingFileTransfers.first { $0.id == id }.map { FileTransferProgress(completedBytes: 0, totalBytes: $0.size) }
    }

    /// Removes a queued file transfer and reports it finished with `cancelled`.
    public func cancelFileTransfer(_ id: UUID) {
        let side = self.side
        pair.state.withLock { state in
            guard let index = state.queuedFiles[side.counterpart]?.firstIndex(where: { $0.0.id == id }) else { return }
            let (transfer, _) = state.queuedFiles[side.counterpart]!.remove(at: index)
            state.delegates[side]?.sessionDidFinishFileTransfer(
                transfer, error: WatchLinkError(.cancelled, "file transfer cancelled", details: ["transferID": id.uuidString]))
        }
    }

    private func precheck(_ state: PairState, _ data: Data, _ channel: SessionChannel) throws(WatchLinkError) {
        guard state.activated.contains(side) else { throw WatchLinkError(.notActivated, "session not activated") }
        try SessionLimits.check(data.count, on: channel)
    }
}
