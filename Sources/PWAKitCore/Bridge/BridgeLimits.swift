/// The bounds a dispatcher enforces on what pages send.
public struct BridgeLimits: Sendable, Hashable {
    /// The largest message accepted, in bytes of JSON text (default 1 MiB).
    public var maxMessageBytes: Int
    /// How long a call may run when the message names no `timeoutMs` (default 30 s).
    public var defaultTimeout: Duration
    /// The most calls one page load may have in flight at once.
    public var maxInFlightPerPage: Int
    /// The deepest nesting of arrays and objects accepted in a message.
    public var maxDepth: Int

    /// Creates limits.
    public init(
        maxMessageBytes: Int = 1 << 20, defaultTimeout: Duration = .seconds(30),
        maxInFlightPerPage: Int = 1024, maxDepth: Int = 64
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.defaultTimeout = defaultTimeout
        self.maxInFlightPerPage = maxInFlightPerPage
        self.maxDepth = maxDepth
    }
}
