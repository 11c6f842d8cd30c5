/// What telemetry learns about one finished call.
public struct BridgeCallRecord: Sendable, Hashable {
    /// The module called, or `-` when the message never named a valid one.
    public var module: String
    /// The action called, or `-`.
    public var action: String
    /// From receipt of the message to its response.
    public var duration: Duration
    /// The size of the incoming message in bytes.
    public var requestBytes: Int
    /// The size of the response JSON in bytes (0 when it was dropped).
    public var responseBytes: Int
    /// `ok`, or the error code.
    public var outcome: String

    /// Creates a record.
    public init(module: String, action: String, duration: Duration, requestBytes: Int, responseBytes: Int, outcome: String) {
        self.module = module
        self.action = action
        self.duration = duration
        self.requestBytes = requestBytes
        self.responseBytes = responseBytes
        self.outcome = outcome
    }
}
