public import PWAKitCore

/// The ready rule of a newly activated release, as a pure state machine: the release must call
/// `PWAKit.ready()` from a document it loaded itself within ``deadline`` of its first document
/// load, or it is rolled back. A ready signal from any other page load — the outgoing page of the
/// previous release, a stale document — never vouches for it.
public struct ReadyWatch: Sendable, Hashable {
    /// Where the watch stands.
    public enum State: Sendable, Hashable {
        /// Launched; no document of the release has loaded yet.
        case waitingForDocument
        /// A document of the release loaded; its ready signal is awaited.
        case waitingForReady(PageLoadID)
        /// The release reported ready.
        case confirmed
        /// The release failed; it was rolled back.
        case failed(String)
    }

    /// What happened to the release's page.
    public enum Event: Sendable, Hashable {
        /// A document of the release committed its load.
        case documentLoaded(PageLoadID)
        /// `lifecycle.ready` was called by a page load.
        case ready(PageLoadID)
        /// The deadline started at the first document's load passed.
        case deadlineElapsed
        /// The web process that showed the release ended abnormally.
        case webProcessTerminated
    }

    /// What the host must do.
    public enum Action: Sendable, Hashable {
        /// Nothing.
        case none
        /// Start the deadline timer (once, at the first document).
        case startDeadline(Duration)
        /// End the release's probation: it is good.
        case confirm
        /// Roll the release back and mark it bad, for this reason.
        case rollBack(reason: String)
    }

    /// How long after its first document the release has to report ready.
    public let deadline: Duration
    /// Where the watch stands.
    public private(set) var state: State = .waitingForDocument

    /// A watch with the given deadline.
    public init(deadline: Duration = .seconds(10)) { self.deadline = deadline }

    /// A watch for a release that is already trusted: every event is ignored.
    public static func confirmed(deadline: Duration = .seconds(10)) -> ReadyWatch {
        var watch = ReadyWatch(deadline: deadline)
        watch.state = .confirmed
        return watch
    }

    /// Feeds one event; returns what to do.
    public mutating func handle(_ event: Event) -> Action {
        switch (state, event) {
        case (.confirmed, _), (.failed, _):
            return .none
        case (.waitingForDocument, .documentLoaded(let load)):
            state = .waitingForReady(load)
            return .startDeadline(deadline)
        case (.waitingForReady, .documentLoaded(let load)):
            // NB: a reload or navigation of the release rebinds the signal to the newest document; the deadline does not restart.
            state = .waitingForReady(load)
            return .none
        case (.waitingForReady(let expected), .ready(let load)) where load == expected:
            state = .confirmed
            return .confirm
        case (_, .ready):
            return .none
        case (.waitingForDocument, .deadlineElapsed):
            return .none
        case (.waitingForReady, .deadlineElapsed):
            let reason = "it did not report ready within \(deadline)"
            state = .failed(reason)
            return .rollBack(reason: reason)
        case (_, .webProcessTerminated):
            let reason = "its web process ended before it reported ready"
            state = .failed(reason)
            return .rollBack(reason: reason)
        }
    }
}
