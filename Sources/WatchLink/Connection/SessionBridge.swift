import Foundation
import Synchronization

/// Session callbacks, queued in arrival order for the connection's actor.
enum SessionInput: Sendable {
    case activated(SessionActivationState)
    case reachability(Bool)
    case data(Data, SessionChannel)
}

/// Turns delegate callbacks into an ordered buffer plus a wake-up signal, so FIFO delivery
/// survives the hop to the actor and inputs that arrive together are handled as one batch.
final class SessionBridge: WatchSessionDelegate, Sendable {
    let signal: AsyncStream<Void>.Continuation
    let buffer = Mutex<[SessionInput]>([])

    init(signal: AsyncStream<Void>.Continuation) { self.signal = signal }

    func sessionDidActivate(_ state: SessionActivationState) { push(.activated(state)) }
    func sessionReachabilityDidChange(_ isReachable: Bool) { push(.reachability(isReachable)) }
    func sessionDidReceive(_ data: Data, on channel: SessionChannel) { push(.data(data, channel)) }

    func push(_ input: SessionInput) {
        buffer.withLock { $0.append(input) }
        signal.yield()
    }

    /// Every input received so far, oldest first.
    func drain() -> [SessionInput] {
        buffer.withLock { inputs in
            defer { inputs.removeAll() }
            return inputs
        }
    }
}
