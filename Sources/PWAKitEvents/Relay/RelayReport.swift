/// What one ``EventRelay/flush()`` did.
public struct RelayReport: Hashable, Sendable {
    /// Events the server stored.
    public var accepted = 0
    /// Events the server already had (a batch sent again after an answer was lost).
    public var duplicates = 0
    /// Events the server refused; deleted, since sending them again cannot help.
    public var rejected = 0
    /// Events moved aside as unreadable, or refused whole by the server one at a time.
    public var quarantined = 0
    /// Batches the server answered.
    public var batches = 0
    /// Attempts that failed and were tried again (lost connections, timeouts, 5xx, 429).
    public var retries = 0

    /// An empty report.
    public init() {}
}
