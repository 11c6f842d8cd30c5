/// How much an event buffer holds before it drops its oldest events (counted, and reported to the
/// server with the next batch), and when a process seals its chunk.
public struct EventBufferLimits: Hashable, Sendable {
    /// Most events queued.
    public var maximumEvents: Int
    /// Most bytes of sealed chunks.
    public var maximumBytes: Int
    /// Events in a chunk before it is sealed.
    public var chunkCapacity: Int
    /// Seconds after which a chunk is sealed at the next event recorded into it.
    public var chunkAge: Double
    /// How many chunks a process seals between two checks of the limits: the buffer may exceed
    /// them by this many chunks per recording process until the next check (a check lists the
    /// queue).
    public var checkInterval: Int

    /// Creates limits.
    public init(
        maximumEvents: Int = 10_000, maximumBytes: Int = 10 * 1024 * 1024, chunkCapacity: Int = 64, chunkAge: Double = 5,
        checkInterval: Int = 4
    ) {
        self.maximumEvents = max(1, maximumEvents)
        self.maximumBytes = max(1024, maximumBytes)
        self.chunkCapacity = max(1, chunkCapacity)
        self.chunkAge = max(0, chunkAge)
        self.checkInterval = max(1, checkInterval)
    }
}
