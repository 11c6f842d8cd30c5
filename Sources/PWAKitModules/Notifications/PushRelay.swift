public import PWAKitCore

/// Hands incoming push notifications to the page as `push` events, holding them until a
/// page has loaded (a push that launched the app arrives before any page exists).
public actor PushRelay {
    /// How many undelivered pushes are kept; older ones are dropped first, and counted.
    public static let capacity = 100

    private var queue: [PushEvent] = []
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
            dropped += 1
        }
        queue.append(push)
    }

    /// Pushes waiting for a page.
    public var queued: [PushEvent] { queue }

    static func event(_ push: PushEvent) -> BridgeEvent {
        BridgeEvent(type: "push", data: try? JSONValue(encoding: push))
    }
}
