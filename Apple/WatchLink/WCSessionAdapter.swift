#if canImport(WatchConnectivity)
public import Foundation
public import WatchConnectivity
import Synchronization
public import WatchLink

/// The ``WatchSession`` over Apple's `WCSession`: a thin, one-to-one mapping.
///
/// Data travels as `Data` under one dictionary key, because `sendMessageData`,
/// `transferUserInfo` and `updateApplicationContext` differ in what they accept. A file's
/// ``FileTransfer`` descriptor travels as JSON under the same key of the file's metadata.
public final class WCSessionAdapter: NSObject, WatchSession, WCSessionDelegate, Sendable {
    static let key = "watchlink"
    /// The key a re-sendable transfer was queued under (``transferUserInfo(_:replacingQueued:)``).
    static let transferKey = "watchlink.transfer"
    let session: WCSession
    let delegate = Mutex<(any WatchSessionDelegate)?>(nil)
    /// Transfers cancelled here, already reported; a later `didFinish` for them is not forwarded.
    let cancelled = Mutex<Set<UUID>>([])

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

    /// `WCSession` calls its delegate on a background queue of its own, holding nothing its send
    /// methods need, so a ``WatchConnection`` handles its callbacks right there.
    public var allowsCallsFromCallbacks: Bool { true }

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

    /// `transferUserInfo` with the key in the dictionary; while an outstanding transfer carries
    /// the same key, nothing is queued (a queued `WCSessionUserInfoTransfer` cannot be changed, and
    /// cancelling it to queue anew would send the request to the back of the queue every time).
    public func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError) {
        try check(data, .userInfo)
        let tag = key.uuidString
        if session.outstandingUserInfoTransfers.contains(where: { ($0.userInfo[Self.transferKey] as? String) == tag }) {
            return
        }
        session.transferUserInfo([Self.key: data, Self.transferKey: tag])
    }

    /// `updateApplicationContext`.
    public func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try check(data, .applicationContext)
        do { try session.updateApplicationContext([Self.key: data]) } catch {
            throw WatchLinkError(.transportFailed, error.localizedDescription)
        }
    }

    /// `transferFile`, after the same checks as the other transports (name, metadata, size, readability).
    public func transferFile(_ url: URL, metadata: [String: String]) throws(WatchLinkError) -> FileTransfer {
        guard session.activationState == .activated else { throw WatchLinkError(.notActivated, "session not activated") }
        try FileTransfer.validateMetadata(metadata)
        try FileTransfer.validateName(url.lastPathComponent)
        let size: Int64
        do {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .isReadableKey])
            guard values.isRegularFile == true, values.isReadable == true else {
                throw WatchLinkError(
                    .fileUnreadable, "\(url.path) is not a readable regular file",
                    details: ["field": "file", "path": url.path])
            }
            size = Int64(values.fileSize ?? 0)
        } catch let error as WatchLinkError {
            throw error
        } catch {
            throw WatchLinkError(
                .fileUnreadable, "\(url.path) cannot be inspected: \(error.localizedDescription)",
                details: ["field": "file", "path": url.path])
        }
        try SessionLimits.checkFile(size)
        let transfer = FileTransfer(id: UUID(), fileName: url.lastPathComponent, metadata: metadata, size: size)
        let descriptor = (try? JSONEncoder().encode(transfer)) ?? Data()
        session.transferFile(url, metadata: [Self.key: descriptor])
        return transfer
    }

    /// `outstandingFileTransfers`, for the transfers this adapter started.
    public var outstandingFileTransfers: [FileTransfer] {
        session.outstandingFileTransfers.compactMap { Self.descriptor($0.file.metadata) }
    }

    /// The `Progress` of the matching `WCSessionFileTransfer`.
    public func progress(ofFileTransfer id: UUID) -> FileTransferProgress? {
        guard let transfer = session.outstandingFileTransfers.first(where: { Self.descriptor($0.file.metadata)?.id == id })
        else { return nil }
        return FileTransferProgress(
            completedBytes: transfer.progress.completedUnitCount, totalBytes: transfer.progress.totalUnitCount)
    }

    /// `WCSessionFileTransfer.cancel()`; the delegate hears `cancelled` (WatchConnectivity reports nothing itself).
    public func cancelFileTransfer(_ id: UUID) {
        guard let transfer = session.outstandingFileTransfers.first(where: { Self.descriptor($0.file.metadata)?.id == id }),
            let descriptor = Self.descriptor(transfer.file.metadata)
        else { return }
        transfer.cancel()
        cancelled.withLock { _ = $0.insert(id) }
        target?.sessionDidFinishFileTransfer(
            descriptor, error: WatchLinkError(.cancelled, "file transfer cancelled", details: ["transferID": id.uuidString]))
    }

    static func descriptor(_ metadata: [String: Any]?) -> FileTransfer? {
        guard let data = metadata?[key] as? Data else { return nil }
        return try? JSONDecoder().decode(FileTransfer.self, from: data)
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

    /// Forwards a file; WatchConnectivity deletes it when this returns, so the delegate copies it first.
    public func session(_ session: WCSession, didReceive file: WCSessionFile) {
        guard let data = file.metadata?[Self.key] as? Data else {
            target?.sessionDidRejectFile(
                WatchLinkError(.invalidEnvelope, "file without a WatchLink descriptor", details: ["field": "metadata"]))
            return
        }
        do throws(WatchLinkError) {
            let transfer = try FileTransfer.decodeDescriptor(data)
            try target?.sessionDidReceiveFile(ReceivedFile(transfer: transfer, url: file.fileURL))
        } catch {
            target?.sessionDidRejectFile(error)
        }
    }

    /// Forwards the end of a file transfer (not a cancellation, which ``cancelFileTransfer(_:)`` reported).
    public func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {
        guard let transfer = Self.descriptor(fileTransfer.file.metadata),
            cancelled.withLock({ $0.remove(transfer.id) }) == nil
        else { return }
        if let error {
            let failure = WatchLinkError(
                .transportFailed, error.localizedDescription, details: ["transferID": transfer.id.uuidString])
            target?.sessionDidFinishFileTransfer(transfer, error: failure)
        } else {
            target?.sessionDidFinishFileTransfer(transfer, error: nil)
        }
    }

    #if os(iOS)
    /// The session became inactive (the user is switching watches).
    public func sessionDidBecomeInactive(_ session: WCSession) { target?.sessionReachabilityDidChange(false) }

    /// The session deactivated; reactivate for the new watch.
    public func sessionDidDeactivate(_ session: WCSession) { session.activate() }
    #endif
}
#endif
