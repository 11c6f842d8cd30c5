import Foundation
import Synchronization

/// Session callbacks, queued in arrival order for the connection's jobs.
enum SessionInput: Sendable {
    case activated(SessionActivationState)
    case reachability(Bool)
    case data(Data, SessionChannel)
    case file(ReceivedFile)
    case fileFinished(FileTransfer, WatchLinkError?)
    case fileRejected(WatchLinkError)
}

/// Turns delegate callbacks into an ordered buffer plus a wake-up, so FIFO delivery survives
/// the hand-over to the connection's jobs and inputs that arrive together are handled as one batch.
///
/// With a session that allows calls from its callbacks, data wakes the connection's pump on the
/// delivering thread; anything else, or any callback of a session that does not allow them, wakes
/// it in a task of its own.
///
/// A received file is copied into the inbox here, on the session's thread, because the session
/// deletes it as soon as the callback returns.
final class SessionBridge: WatchSessionDelegate, Sendable {
    let buffer = Mutex<[SessionInput]>([])
    /// Whether a pump was asked for and has not yet drained the buffer.
    let pumpRequested = Atomic<Bool>(false)
    let inbox: FileInbox?
    let callsBackInline: Bool
    let wake: @Sendable () -> Void

    init(inbox: FileInbox?, callsBackInline: Bool, wake: @escaping @Sendable () -> Void) {
        self.inbox = inbox
        self.callsBackInline = callsBackInline
        self.wake = wake
    }

    func sessionDidActivate(_ state: SessionActivationState) { push(.activated(state)) }
    func sessionReachabilityDidChange(_ isReachable: Bool) { push(.reachability(isReachable)) }
    func sessionDidReceive(_ data: Data, on channel: SessionChannel) { push(.data(data, channel)) }
    func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?) {
        push(.fileFinished(transfer, error))
    }
    func sessionDidRejectFile(_ error: WatchLinkError) { push(.fileRejected(error)) }

    /// Copies the file into the inbox; a redelivery of a file already there is accepted silently.
    ///
    /// A descriptor unsafe to use is refused for good (reported, not thrown); a failure to store the
    /// file, or a missing inbox, is thrown so a transport that can deliver it again does.
    func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError) {
        guard let inbox else {
            let error = WatchLinkError(
                .invalidArgument, "no file inbox configured; the file was refused", details: ["field": "fileInbox"])
            push(.fileRejected(error))
            throw error
        }
        do throws(WatchLinkError) {
            if let accepted = try inbox.accept(file) { push(.file(accepted)) }
        } catch {
            push(.fileRejected(error))
            if error.code != .invalidEnvelope { throw error }
        }
    }

    func push(_ input: SessionInput) {
        buffer.withLock { $0.append(input) }
        guard !pumpRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // NB: only data is handled on the delivering thread (the reader's); file and reachability
        // events may come from a caller's thread inside one of the session's calls.
        if callsBackInline, case .data = input {
            wake()
        } else {
            let wake = self.wake
            Task { wake() }
        }
    }

    /// Swaps every input received so far, oldest first, into `inputs`, which must be empty, and
    /// leaves its storage to the buffer: a caller that empties and keeps the array it drains into
    /// (keeping its capacity) makes no allocation per input. An input pushed from now on asks for
    /// another pump.
    func drain(into inputs: inout [SessionInput]) {
        assert(inputs.isEmpty, "drained into an array that still holds inputs")
        pumpRequested.store(false, ordering: .sequentiallyConsistent)
        buffer.withLock { swap(&$0, &inputs) }
    }
}
