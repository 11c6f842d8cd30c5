public import PWAKitCore

/// The bridge page of the document in a web view, as a value every host drives the same way
/// (the WebKitGTK host today; the iOS host and the launcher's views next): which page load
/// messages go to, what waits while it opens, and which pushes wait for it.
///
/// Each committed main-frame document is a new *generation*. Its page load opens
/// asynchronously (the dispatcher's `openPage`); until then messages queue in order and pushes
/// are held. A commit ends the previous load: its queued messages are refused, its open page is
/// to be closed, its held pushes go back to the relay. Output and answers carry the generation
/// they were made for and are dropped when it is no longer current, so nothing reaches the next
/// document. `Pending` is whatever a host keeps per queued message (its text and reply handle).
public struct PageLoadState<Pending> {
    /// Where the current document stands.
    public enum Phase {
        /// No document with the bridge.
        case none
        /// Its page load is opening; messages wait, in order.
        case opening(generation: UInt64, queued: [Pending])
        /// Messages go to this page load.
        case open(generation: UInt64, PageLoadID)
    }

    /// Where the current document stands.
    public private(set) var phase: Phase = .none
    /// Bumped on every committed main-frame document.
    public private(set) var generation: UInt64 = 0
    /// Pushes for the current document that arrived while its page load was opening, in order.
    public private(set) var heldPushes: [BridgeEvent] = []

    /// A state with no document.
    public init() {}

    /// What becomes of a message the page posted.
    public enum Route {
        /// There is no bridge page: answer nothing.
        case refuse
        /// The page load is opening: the message waits.
        case queued
        /// Hand it to the dispatcher for this page load.
        case dispatch(PageLoadID)
    }

    /// Routes a message the current document posted.
    public mutating func receive(_ message: Pending) -> Route {
        switch phase {
        case .none:
            return .refuse
        case .opening(let generation, var queued):
            queued.append(message)
            phase = .opening(generation: generation, queued: queued)
            return .queued
        case .open(_, let page):
            return .dispatch(page)
        }
    }

    /// What the previous document's load leaves behind when another commits.
    public struct Ended {
        /// Messages that were waiting: answer each with nothing.
        public var refused: [Pending] = []
        /// Its open page load: close it (its calls are cancelled).
        public var closed: PageLoadID?
        /// Pushes held for it: hand them back to the relay, in order.
        public var returnedPushes: [BridgeEvent] = []
    }

    /// A new main-frame document committed; `bridged` says whether its origin gets the bridge (its
    /// page load then starts opening). Returns the new generation and what the previous load leaves.
    public mutating func commit(bridged: Bool) -> (generation: UInt64, ended: Ended) {
        generation += 1
        var ended = Ended(returnedPushes: heldPushes)
        heldPushes = []
        switch phase {
        case .none: break
        case .opening(_, let queued): ended.refused = queued
        case .open(_, let page): ended.closed = page
        }
        phase = bridged ? .opening(generation: generation, queued: []) : .none
        return (generation, ended)
    }

    /// The dispatcher opened `page` for the load of `generation`. Returns the queued messages to
    /// dispatch to it and the held pushes to show, in order; `nil` when that load already ended
    /// (another document committed meanwhile): close `page`.
    public mutating func opened(_ page: PageLoadID, generation: UInt64) -> (queued: [Pending], pushes: [BridgeEvent])? {
        guard case .opening(generation, let queued) = phase else { return nil }
        phase = .open(generation: generation, page)
        let pushes = heldPushes
        heldPushes = []
        return (queued, pushes)
    }

    /// The open page load, if there is one.
    public var openPage: PageLoadID? {
        if case .open(_, let page) = phase { return page }
        return nil
    }

    /// Whether the current document has (or is opening) a bridge page.
    public var isBridged: Bool {
        if case .none = phase { return false }
        return true
    }

    /// Whether output made for the load of `generation` may reach the page now.
    public func isCurrent(_ generation: UInt64) -> Bool {
        generation == self.generation && openPage != nil
    }

    /// What becomes of a push meant for the load of `generation`.
    public enum PushRoute {
        /// Show it now.
        case show
        /// Its page load is still opening: it waits (behind any held before it).
        case held
        /// Its document is gone: hand it back to the relay for the next one.
        case requeue
    }

    /// Routes a push meant for the load of `generation`.
    public mutating func push(_ event: BridgeEvent, generation: UInt64) -> PushRoute {
        guard generation == self.generation else { return .requeue }
        guard openPage != nil, heldPushes.isEmpty else {
            heldPushes.append(event)
            return .held
        }
        return .show
    }
}
