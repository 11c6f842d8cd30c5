/// How much an event buffer holds before it drops its oldest events (counted, and reported to the
/// server with the next batch).
public struct EventBufferLimits: Hashable, Sendable {
    /// Most events queued.
    public var maximumEvents: Int
    /// Most bytes of queued event files.
    public var maximumBytes: Int
    /// How many events a process records between two checks of the limits: the buffer may exceed
    /// them by this many events per recording process until the next check (a check lists the
    /// queue, which recording every event would pay for).
    public var checkInterval: Int

    /// Creates limits.
    public init(maximumEvents: Int = 10_000, maximumBytes: Int = 10 * 1024 * 1024, checkInterval: Int = 64) {
        self.maximumEvents = max(1, maximumEvents)
        self.maximumBytes = max(1024, maximumBytes)
        self.checkInterval = max(1, checkInterval)
    }
}
