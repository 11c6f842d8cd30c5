import Foundation

/// Session callbacks, queued in arrival order for the connection's actor.
enum SessionInput: Sendable {
    case activated(SessionActivationState)
    case reachability(Bool)
    case data(Data, SessionChannel)
}

/// Turns delegate callbacks into an ordered stream, so FIFO delivery survives the hop to the actor.
final class SessionBridge: WatchSessionDelegate, Sendable {
    let continuation: AsyncStream<SessionInput>.Continuation

    init(continuation: AsyncStream<SessionInput>.Continuation) { self.continuation = continuation }

    func sessionDidActivate(_ state: SessionActivationState) { continuation.yield(.activated(state)) }
    func sessionReachabilityDidChange(_ isReachable: Bool) { continuation.yield(.reachability(isReachable)) }
    func sessionDidReceive(_ data: Data, on channel: SessionChannel) { continuation.yield(.data(data, channel)) }
}
