public import PWAKitCore

/// Hands incoming push notifications to the page as `push` events, holding them until a
/// page has loaded (a push that launched the app arrives before any page exists).
public actor PushRelay {
    /// How many undelivered pushes are kept; older ones are dropped first, and counted.
    public static let capacity = 100

    private var queue: [PushEvent] = []
    /// How many pushes at the front of `queue` were handed back (``requeue(_:)``).
    private var handedBack = 0
    private var sink: (@Sendable (BridgeEvent) -> Void)?
    /// Pushes dropped because the queue was full.
    public private(set) var dropped = 0

    /// An empty relay with no page attached.
    public init() {}

    /// A page has loaded: queued pushes go to it now, later ones as they arrive.
    public func attach(_ deliver: @escaping @Sendable (BridgeEvent) -> Void) {
        sink = deliver
        let waiting = queue
        queue.removeAll()
        handedBack = 0
        for push in waiting { deliver(Self.event(push)) }
    }

    /// The page went away: pushes queue until the next one loads.
    public func detach() {
        sink = nil
    }

    /// A push arrived.
    public func receive(_ push: PushEvent) {
        if let sink {
            sink(Self.event(push))
            return
        }
        if queue.count >= Self.capacity {
            queue.removeFirst()
            handedBack = max(0, handedBack - 1)
            dropped += 1
        }
        queue.append(push)
    }

    /// A `push` event this relay delivered reached no page (the page it was meant for went away
    /// before it could take it): it goes to the next page, ahead of the pushes that arrived
    /// after it. Events handed back in the order they were delivered keep that order. Anything
    /// that is not one of this relay's push events is ignored.
    public func requeue(_ event: BridgeEvent) {
        guard event.type == "push", let push = try? event.data?.decode(PushEvent.self) else { return }
        if let sink {
            sink(event)
            return
        }
        if queue.count >= Self.capacity {
            // NB: the queue is full of newer pushes; the one handed back is the oldest of all.
            dropped += 1
            return
        }
        queue.insert(push, at: handedBack)
        handedBack += 1
    }

    /// Pushes waiting for a page.
    public var queued: [PushEvent] { queue }

    static func event(_ push: PushEvent) -> BridgeEvent {
        BridgeEvent(type: "push", data: try? JSONValue(encoding: push))
    }
}
