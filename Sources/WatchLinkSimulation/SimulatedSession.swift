package import Foundation
package import WatchLink

/// A ``WatchSession`` inside a ``PairedSimulation``: WatchConnectivity's semantics, with faults.
///
/// One instance exists per process lifetime of a simulated device; the queues and contexts it
/// hands data to belong to the simulated system and survive the app's crashes.
package final class SimulatedSession: WatchSession {
    unowned let world: PairedSimulation
    let side: DeviceOrigin
    let incarnation: Int
    weak var delegate: (any SimulationDelegate)?
    var forwarding: ForwardingDelegate?
    var state: SessionActivationState = .notActivated

    init(world: PairedSimulation, side: DeviceOrigin, incarnation: Int) {
        self.world = world
        self.side = side
        self.incarnation = incarnation
    }

    /// The activation state.
    package var activationState: SessionActivationState { state }
    /// Whether both devices are up, activated and the link is up.
    package var isReachable: Bool { state == .activated && world.isReachable(from: side) }
    /// The last context this device sent.
    package var applicationContext: Data? { world.sentContext[side] }
    /// The last context this device received.
    package var receivedApplicationContext: Data? { world.receivedContext[side] }

    /// Activation completes after a short simulated delay.
    package func activate(delegate: any WatchSessionDelegate) {
        let forwarding = ForwardingDelegate(target: delegate)
        self.forwarding = forwarding
        attach(forwarding)
    }

    func attach(_ delegate: any SimulationDelegate) {
        self.delegate = delegate
        world.scheduleActivation(of: self)
    }

    /// Sends a live message; fails unless reachable.
    package func sendMessage(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .message)
        guard isReachable else { throw WatchLinkError(.notReachable, "counterpart not reachable") }
        world.transmitMessage(from: side, data)
    }

    /// Queues a user-info transfer.
    package func transferUserInfo(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        world.enqueueUserInfo(from: side, data, key: nil)
    }

    /// Queues a user-info transfer under `key`: one still queued under it carries `data` instead.
    package func transferUserInfo(_ data: Data, replacingQueued key: UUID) throws(WatchLinkError) {
        try precheck(data, .userInfo)
        world.enqueueUserInfo(from: side, data, key: key)
    }

    /// Replaces the application context.
    package func updateApplicationContext(_ data: Data) throws(WatchLinkError) {
        try precheck(data, .applicationContext)
        world.updateContext(from: side, data)
    }

    /// Reads the file now and queues it; the simulated system delivers it, with faults.
    package func transferFile(_ url: URL, metadata: [String: String]) throws(WatchLinkError) -> FileTransfer {
        guard state == .activated else { throw WatchLinkError(.notActivated, "session not activated") }
        let (transfer, data) = try FileTransfer.readAll(url, metadata: metadata, id: world.random.uuid())
        world.enqueueFile(from: side, transfer, data)
        return transfer
    }

    /// File transfers from this device not yet delivered.
    package var outstandingFileTransfers: [FileTransfer] { world.fileQueues[side.counterpart]!.map(\.0) }

    /// Nothing of a queued file has moved yet; `nil` once it was delivered.
    package func progress(ofFileTransfer id: UUID) -> FileTransferProgress? {
        outstandingFileTransfers.first { $0.id == id }.map { FileTransferProgress(completedBytes: 0, totalBytes: $0.size) }
    }

    /// Removes a queued file transfer and reports it finished with `cancelled`.
    package func cancelFileTransfer(_ id: UUID) { world.cancelFile(from: side, id) }

    private func precheck(_ data: Data, _ channel: SessionChannel) throws(WatchLinkError) {
        guard state == .activated else { throw WatchLinkError(.notActivated, "session not activated") }
        try SessionLimits.check(data.count, on: channel)
    }
}

/// The callbacks a simulated device receives (the same as ``WatchSessionDelegate``, without `Sendable`,
/// because the simulation runs on one thread).
protocol SimulationDelegate: AnyObject {
    func sessionDidActivate(_ state: SessionActivationState)
    func sessionReachabilityDidChange(_ isReachable: Bool)
    func sessionDidReceive(_ data: Data, on channel: SessionChannel)
    func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError)
    func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?)
}

/// Adapts a public delegate to the simulation.
final class ForwardingDelegate: SimulationDelegate {
    let target: any WatchSessionDelegate

    init(target: any WatchSessionDelegate) { self.target = target }

    func sessionDidActivate(_ state: SessionActivationState) { target.sessionDidActivate(state) }
    func sessionReachabilityDidChange(_ isReachable: Bool) { target.sessionReachabilityDidChange(isReachable) }
    func sessionDidReceive(_ data: Data, on channel: SessionChannel) { target.sessionDidReceive(data, on: channel) }
    func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError) { try target.sessionDidReceiveFile(file) }
    func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?) {
        target.sessionDidFinishFileTransfer(transfer, error: error)
    }
}
